// publint on the packed tarball (not the working directory), strict: warnings fail too.
import { readFileSync } from 'node:fs';
import { publint } from 'publint';
// eslint-disable-next-line no-restricted-syntax -- publint's own subpath, not a module of ours
import { formatMessage } from 'publint/utils';
import type { ReleaseProblem } from './release-problem.js';

export async function publintProblems(name: string, tarball: string): Promise<ReleaseProblem[]> {
  const bytes = readFileSync(tarball);
  const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const result = await publint({ pack: { tarball: data }, strict: true, level: 'warning' });
  return result.messages.map((message) => ({
    code: 'publint' as const,
    subject: name,
    message: `${message.code}: ${formatMessage(message, result.pkg, { color: false }) ?? message.path.join('.')}`,
  }));
}
