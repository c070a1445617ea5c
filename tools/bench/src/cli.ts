// `pnpm bench [--write] [--only TEXT[,TEXT]] [--list]`, from the repository root (the root script
// builds the packages first). Runs every benchmark of benchmarks.ts one at a time, showing their
// output as it comes, and ends with one table: every target, this run's figure, met or not, with the
// date, commit and load average. --write puts that table into BENCHMARKS.md as the latest run (the
// one it replaces moves to the history below it); it refuses when a benchmark failed, so that an
// incomplete table never replaces a complete one. Exit code: 0 every target met, 2 some not met,
// 1 a benchmark failed (crashed, overran its bound, printed a malformed or no BENCH-TARGET line).
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BENCHMARKS } from './benchmarks.js';
import { writeSummary } from './benchmarks-document.js';
import { runBenchmark, runProblems, type BenchmarkRun } from './run-benchmark.js';
import { finishContext, startContext } from './run-context.js';
import { summaryTable } from './summary-table.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
const DOCUMENT_NAME = 'BENCHMARKS.md';
const DOCUMENT = join(ROOT, DOCUMENT_NAME);

const { values } = parseArgs({ options: { write: { type: 'boolean', default: false }, only: { type: 'string' }, list: { type: 'boolean', default: false } } });

if (values.list) {
  for (const b of BENCHMARKS) process.stdout.write(`${b.name}: ${b.cwd}/${b.script} (bound ${b.timeoutMinutes} min)\n`);
  process.exit(0);
}
const only = values.only?.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
if (only !== undefined && values.write) {
  process.stderr.write('bench: --write records a whole run; it cannot be combined with --only\n');
  process.exit(1);
}
const selected = only === undefined ? BENCHMARKS : BENCHMARKS.filter((b) => only.some((text) => b.name.toLowerCase().includes(text)));
if (selected.length === 0) {
  process.stderr.write(`bench: no benchmark matches --only ${values.only}; --list shows them\n`);
  process.exit(1);
}

const interrupted = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => interrupted.abort());

const context = startContext(ROOT, DOCUMENT_NAME);
const runs: BenchmarkRun[] = [];
for (const [i, benchmark] of selected.entries()) {
  if (interrupted.signal.aborted) break;
  process.stdout.write(`\n## bench ${i + 1}/${selected.length}: ${benchmark.name} (${benchmark.cwd}/${benchmark.script})\n`);
  const run = await runBenchmark(benchmark, {
    root: ROOT,
    signal: interrupted.signal,
    echo: (stream, chunk) => (stream === 'stdout' ? process.stdout : process.stderr).write(chunk),
  });
  process.stdout.write(`## ${benchmark.name}: ${run.targets.length} target(s) in ${(run.durationMs / 1000).toFixed(0)} s\n`);
  runs.push(run);
}
const summary = summaryTable(finishContext(context), runs);
process.stdout.write(`\n${summary.markdown}\n`);
// Why a benchmark failed scrolled by long ago: its last words again, under the table.
for (const run of runs.filter((r) => runProblems(r).length > 0 && r.stderrTail !== '')) {
  process.stderr.write(`\n${run.benchmark.name}, end of its stderr:\n${run.stderrTail.split('\n').slice(-15).join('\n')}\n`);
}

if (interrupted.signal.aborted) {
  process.stderr.write('bench: interrupted; nothing written\n');
  process.exit(1);
}
if (values.write) {
  if (summary.failures.length > 0) {
    process.stderr.write(`bench: not written to BENCHMARKS.md: ${summary.failures.length} problem(s) above; an incomplete table does not replace the last complete one\n`);
    process.exit(1);
  }
  const written = writeSummary(readFileSync(DOCUMENT, 'utf8'), summary.markdown);
  if (!written.ok) {
    process.stderr.write(`bench: not written: ${written.error}\n`);
    process.exit(1);
  }
  writeFileSync(DOCUMENT, written.document);
  process.stdout.write('bench: written to BENCHMARKS.md (the run it replaced is now the first of its history)\n');
}
process.exit(summary.failures.length > 0 ? 1 : summary.unmet > 0 ? 2 : 0);
