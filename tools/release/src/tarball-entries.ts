// Reads a packed .tgz the way a registry serves it, so checks look at exactly what would be
// published rather than at the working directory. npm and pnpm write ustar archives with every
// path under "package/"; long paths come as ustar prefixes or pax "path" records.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const BLOCK = 512;

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
}

function paxPath(body: Buffer): string | undefined {
  // Records are "<length> <key>=<value>\n".
  for (const record of body.toString('utf8').split('\n')) {
    const match = /^\d+ path=(.*)$/.exec(record);
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

/** Regular files of the archive, keyed by their path inside the package (the "package/" prefix removed). */
export function tarballEntries(file: string): Map<string, Buffer> {
  const archive = gunzipSync(readFileSync(file));
  const entries = new Map<string, Buffer>();
  let offset = 0;
  let nextPath: string | undefined;
  while (offset + BLOCK <= archive.length) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = field(header, 156, 1) || '0';
    const prefix = field(header, 345, 155);
    const name = field(header, 0, 100);
    const body = archive.subarray(offset + BLOCK, offset + BLOCK + size);
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      nextPath = paxPath(body);
      continue;
    }
    if (type === 'g') continue;
    const path = nextPath ?? (prefix === '' ? name : `${prefix}/${name}`);
    nextPath = undefined;
    if (type === '0' || type === '\0') entries.set(path.replace(/^[^/]+\//, ''), Buffer.from(body));
  }
  return entries;
}

export function tarballManifest(entries: ReadonlyMap<string, Buffer>): Record<string, unknown> {
  const manifest = entries.get('package.json');
  if (manifest === undefined) throw new Error('the tarball holds no package.json');
  return JSON.parse(manifest.toString('utf8')) as Record<string, unknown>;
}
