import { readFileSync } from 'node:fs';

/** A process's CPU time so far (utime + stime from /proc/<pid>/stat), in ms; Linux counts it in 10 ms ticks, so average over many calls. */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The median and the interquartile range of milliseconds, as the decision records print them. */
export function medianAndSpread(samples: readonly number[]): { median: number; text: string } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), text: `median ${at(0.5).toFixed(2)} ms (IQR ${at(0.25).toFixed(2)}-${at(0.75).toFixed(2)})` };
}

/** The JSON-RPC result of a response body (plain JSON or one SSE event); throws on an error response. */
export function jsonRpcResult(body: Buffer): Record<string, unknown> {
  const text = body.toString('utf8');
  const parsed = JSON.parse(text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}')) as { result?: Record<string, unknown> };
  if (parsed.result === undefined) throw new Error(`no result: ${text.slice(0, 300)}`);
  return parsed.result;
}
