// The published declarations compile in a consumer's project, whose compiler options are not ours:
// this repository sets exactOptionalPropertyTypes, a consumer's default `strict` does not, and a
// declaration can be valid under one and an error under the other (TS2411: an optional member
// beside a typed index signature). The release e2e compiles a consumer against the registry's
// package; this finds the same class of error in seconds, on the built dist.
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './repo-files.js';

const CONSUMER_DEFAULTS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
};

function diagnostics(options: ts.CompilerOptions): string[] {
  const program = ts.createProgram([join(PACKAGE_ROOT, 'dist', 'index.d.ts')], options);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file === undefined ? '' : `${d.file.fileName.slice(PACKAGE_ROOT.length + 1)}: `;
    return `${where}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

describe("the built declarations in a consumer's project", () => {
  it('compile under plain strict (no exactOptionalPropertyTypes)', () => {
    expect(diagnostics({ ...CONSUMER_DEFAULTS, exactOptionalPropertyTypes: false })).toEqual([]);
  }, 60_000);

  it('compile under strict with exactOptionalPropertyTypes and noUncheckedIndexedAccess', () => {
    expect(diagnostics({ ...CONSUMER_DEFAULTS, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true })).toEqual([]);
  }, 60_000);
});
