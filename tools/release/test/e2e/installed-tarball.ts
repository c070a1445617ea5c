// Packs an installed third-party package back into the tarball its registry served. npm pack
// cannot be used here (npm 11 dies with "Exit handler never called!" on some of pnpm's store
// directories, ajv among them), so this writes the ustar archive itself. An installed package
// is its published tarball unpacked, except what an install script built next to it (pnpm here
// only lets better-sqlite3 build): the "files" allow-list, when there is one, keeps that out.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { PackageManifest } from '../../src/workspace-packages.js';

const BLOCK = 512;
// npm's fixed timestamp for every entry, so a tarball depends on its contents only.
const MTIME = Math.floor(Date.UTC(1985, 9, 26, 8, 15) / 1000);
const ALWAYS = /^(package\.json|readme(\..*)?|licen[cs]e(\..*)?|copying(\..*)?)$/i;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, mode: number, type: '0' | 'x', prefix = ''): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(mode, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(MTIME, 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(octal(sum, 7), 148, 'ascii');
  return block;
}

function padded(data: Buffer): Buffer[] {
  const rest = data.length % BLOCK;
  return rest === 0 ? [data] : [data, Buffer.alloc(BLOCK - rest)];
}

function entry(path: string, data: Buffer, mode: number): Buffer[] {
  if (Buffer.byteLength(path) <= 100) return [header(path, data.length, mode, '0'), ...padded(data)];
  const cut = path.lastIndexOf('/', 155);
  if (cut > 0 && Buffer.byteLength(path.slice(cut + 1)) <= 100 && Buffer.byteLength(path.slice(0, cut)) <= 155) {
    return [header(path.slice(cut + 1), data.length, mode, '0', path.slice(0, cut)), ...padded(data)];
  }
  // A pax record for paths ustar cannot hold: "<length> path=<path>\n", the length counting itself.
  const body = ` path=${path}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length += 1;
  const pax = Buffer.from(`${length}${body}`);
  return [header('pax', pax.length, 0o644, 'x'), ...padded(pax), header(path.slice(-100), data.length, mode, '0'), ...padded(data)];
}

function globSegment(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]').replace(/\[!/g, '[^');
  return new RegExp(`^${escaped}$`);
}

/** The files npm packs whatever "files" says: `main` and every `bin` target. */
function entryPoints(manifest: PackageManifest): Set<string> {
  const bin = manifest['bin'];
  const targets = [manifest['main'], ...(typeof bin === 'string' ? [bin] : Object.values((bin ?? {}) as Record<string, unknown>))];
  return new Set(targets.filter((t): t is string => typeof t === 'string').map((t) => t.replace(/^\.?\//, '')));
}

/** Whether a path (relative to the package) is one the package publishes. */
export function publishedPath(manifest: PackageManifest, path: string): boolean {
  const [top = ''] = path.split('/');
  if (top === 'node_modules') return false;
  const files = manifest['files'];
  if (!Array.isArray(files) || ALWAYS.test(path) || entryPoints(manifest).has(path)) return true;
  return files.some((f) => typeof f === 'string' && globSegment(f.replace(/^\.?\//, '').split('/')[0] ?? '').test(top));
}

function walk(dir: string, base = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => {
      const rel = base === '' ? e.name : `${base}/${e.name}`;
      if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(join(dir, e.name), rel);
      return e.isFile() ? [rel] : [];
    });
}

export function packInstalledPackage(dir: string, manifest: PackageManifest): Buffer {
  const blocks: Buffer[] = [];
  for (const path of walk(dir).filter((p) => publishedPath(manifest, p))) {
    const full = join(dir, path);
    const mode = (lstatSync(full).mode & 0o111) !== 0 ? 0o755 : 0o644;
    blocks.push(...entry(`package/${path}`, readFileSync(full), mode));
  }
  blocks.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(blocks));
}
