import type { Writable } from '../cli-io.js';

export interface ProgressIndicator {
  stop(): void;
}

const FRAMES = ['|', '/', '-', '\\'];

/**
 * While a `--wait` preflight is in flight: a one-line spinner with the elapsed time on stderr, and
 * only on a terminal (a pipe or a CI log gets nothing). The line is erased when it stops.
 */
export function startProgress(stream: Writable, label: string, budgetMs: number): ProgressIndicator {
  if (stream.isTTY !== true || budgetMs <= 0) return { stop: () => undefined };
  const started = Date.now();
  let frame = 0;
  const draw = () => {
    const elapsed = ((Date.now() - started) / 1000).toFixed(1);
    stream.write(`\r${FRAMES[frame++ % FRAMES.length]} ${label} ${elapsed}s / ${(budgetMs / 1000).toFixed(1)}s`);
  };
  draw();
  const timer = setInterval(draw, 100);
  return {
    stop() {
      clearInterval(timer);
      stream.write('\r\u001b[2K');
    },
  };
}
