// Where the local socket goes: the data directory when the path fits the platform's sun_path (Node
// would silently cut a longer one short), else a fresh private directory, else nowhere, with why.
import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseSocketLocation, maxSocketPathBytes } from '../src/local-socket/socket-location.js';
import { TempDir } from './gateway-harness.js';

const dir = new TempDir();
afterAll(() => dir.remove());

/** A data directory whose socket path is exactly `bytes` long. */
function dataDirFor(bytes: number): string {
  const base = join(dir.path, 'x');
  return `${base}${'y'.repeat(bytes - Buffer.byteLength(join(base, 'gateway.sock')))}`;
}

describe('the socket location', () => {
  it('is the data directory up to the platform\'s limit: 107 bytes on Linux, 103 on macOS', () => {
    expect(maxSocketPathBytes('linux')).toBe(107);
    expect(maxSocketPathBytes('darwin')).toBe(103);
    for (const [platform, max] of [['linux', 107], ['darwin', 103]] as const) {
      const fits = chooseSocketLocation(dataDirFor(max), { platform, tmpDir: dir.path });
      expect(fits).toEqual({ ok: true, path: join(dataDirFor(max), 'gateway.sock') });
      const over = chooseSocketLocation(dataDirFor(max + 1), { platform, tmpDir: dir.path });
      if (!over.ok) throw new Error(over.message);
      expect(over.privateDir).toBeDefined();
      expect(over.path).toBe(join(over.privateDir!, 'gateway.sock'));
      expect(statSync(over.privateDir!).mode & 0o777).toBe(0o700);
      expect(over.note).toContain(`is ${max + 1} bytes, over the ${max}-byte limit`);
      rmSync(over.privateDir!, { recursive: true });
    }
  });

  it('is nowhere, with why, when the temp directory is too long as well, or on Windows', () => {
    const longTmp = join(dir.path, 't'.repeat(120));
    const none = chooseSocketLocation(dataDirFor(200), { platform: 'linux', tmpDir: longTmp });
    expect(none.ok).toBe(false);
    expect(!none.ok && none.message).toMatch(/both over the 107-byte limit of a socket path; use a shorter data_dir or TMPDIR$/);
    expect(existsSync(longTmp)).toBe(false);
    expect(chooseSocketLocation(dir.path, { platform: 'win32' }).ok).toBe(false);
  });
});
