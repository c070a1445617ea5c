// The README's usage example runs as written and prints exactly the output the README shows.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { expect, it } from 'vitest';
import * as evaluator from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const blocks = [...readme.matchAll(/```(ts|json)\n([\s\S]*?)```/g)].map((match) => ({ lang: match[1], code: match[2] ?? '' }));

it('runs the usage example and prints the documented output', async () => {
  const example = blocks.find((block) => block.lang === 'ts');
  const output = blocks.find((block) => block.lang === 'json');
  expect(example && output).toBeTruthy();
  const js = ts
    .transpileModule(example!.code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: false } })
    .outputText.replace(/import\s*\{([^}]*)\}\s*from\s*'@mcpproxy\/evaluator';/, 'const {$1} = evaluator;');
  const printed: string[] = [];
  const run = new Function('evaluator', 'console', js) as (module: typeof evaluator, out: { log: (text: string) => void }) => void;
  run(evaluator, { log: (text) => printed.push(text) });
  expect(printed.join('\n')).toBe(output!.code.trimEnd());
});
