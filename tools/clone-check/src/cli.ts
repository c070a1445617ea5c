// `pnpm --filter @mcpproxy/clone-check check`: prints every problem at once, exits 1 when there is one.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cloneProblems } from './clone-problems.js';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
const problems = cloneProblems(root);
for (const p of problems) process.stderr.write(`${p.file}:${p.line}:${p.column}: ${p.message}\n`);
if (problems.length > 0) {
  process.stderr.write(`${problems.length} problem(s): a fresh clone would not have what these files reach for.\n`);
  process.exit(1);
}
process.stdout.write('clone-check: no tracked file reaches outside the repository\n');
