// A TypeScript file compiled against an installed @mcpproxy/schema: it compiles only when the
// package's types know the code, and know it as retryable (as the new registry says).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { writeFileSync } from 'node:fs';

export function typesProbe(code: string): string {
  return [
    "import type { ReasonCode, ToolVerdict } from '@mcpproxy/schema';",
    `export const code: ReasonCode = '${code}';`,
    `export const verdict: ToolVerdict = { id: 'github:create_issue', status: 'unavailable', reason: '${code}', retryable: true };`,
    `// @ts-expect-error the registry makes ${code} retryable`,
    `export const wrong: ToolVerdict = { id: 'github:create_issue', status: 'unavailable', reason: '${code}', retryable: false };`,
    '',
  ].join('\n');
}

const TSCONFIG = {
  compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, types: [] },
  files: ['probe.ts'],
};

/** Compiles the probe in a consumer project; returns the compiler's output, empty when it compiled. */
export function compileProbe(projectDir: string, code: string): { ok: boolean; output: string } {
  writeFileSync(join(projectDir, 'probe.ts'), typesProbe(code));
  writeFileSync(join(projectDir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', projectDir], { cwd: projectDir, encoding: 'utf8', stdio: 'pipe' });
    return { ok: true, output: '' };
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failure.stdout ?? ''}${failure.stderr ?? ''}` };
  }
}
