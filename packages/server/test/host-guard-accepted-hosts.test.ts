// The Host guard remembers Host headers it accepted (parsing one as a URL on every request was ~2% of a
// REST preflight), and a remembered Host answers exactly as a fresh check would: a refused Host is
// never remembered, the Origin is still checked on every request, and at most 16 spellings are kept.
import { describe, expect, it } from 'vitest';
import { allowedAuthorities, checkHostAndOrigin } from '../src/http/host-origin-guard.js';

describe('the Host guard with remembered hosts', () => {
  it('answers a remembered Host as a fresh check does, and checks the Origin every time', () => {
    const allowed = allowedAuthorities('127.0.0.1', 8123);
    for (let i = 0; i < 3; i++) {
      expect(checkHostAndOrigin('127.0.0.1:8123', undefined, allowed)).toEqual({ ok: true });
      expect(checkHostAndOrigin('127.0.0.1:8123', 'http://evil.example', allowed)).toEqual({ ok: false, message: 'Origin not allowed: http://evil.example' });
      expect(checkHostAndOrigin('127.0.0.1:8123', 'http://localhost:8123', allowed)).toEqual({ ok: true });
      expect(checkHostAndOrigin('evil.example:8123', undefined, allowed)).toEqual({ ok: false, message: 'Host not allowed: evil.example:8123' });
      expect(checkHostAndOrigin('127.0.0.1:9999', undefined, allowed)).toEqual({ ok: false, message: 'Host not allowed: 127.0.0.1:9999' });
    }
    expect([...allowed.acceptedHosts]).toEqual(['127.0.0.1:8123']);
  });

  it('keeps at most 16 spellings and still accepts the others by checking them', () => {
    const allowed = allowedAuthorities('127.0.0.1', 8123);
    // Host names are case-insensitive: many spellings of one accepted host.
    const spellings = Array.from({ length: 40 }, (_, i) => `${'localhost'.split('').map((c, j) => ((i >> j) & 1 ? c.toUpperCase() : c)).join('')}:8123`);
    for (const host of spellings) expect(checkHostAndOrigin(host, undefined, allowed), host).toEqual({ ok: true });
    expect(allowed.acceptedHosts.size).toBe(16);
    for (const host of spellings) expect(checkHostAndOrigin(host, undefined, allowed), host).toEqual({ ok: true });
  });
});
