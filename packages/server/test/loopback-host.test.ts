// Which listen hosts only this machine can reach: the gateway refuses any other without require_mcp_auth.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../src/http/loopback-host.js';

describe('isLoopbackHost', () => {
  it('localhost, all of 127.0.0.0/8 and ::1 in its spellings are loopback', () => {
    fc.assert(fc.property(fc.nat(255), fc.nat(255), fc.nat(255), (a, b, c) => isLoopbackHost(`127.${a}.${b}.${c}`) && isLoopbackHost(`::ffff:127.${a}.${b}.${c}`)));
    for (const host of ['localhost', 'LOCALHOST', '::1', '0:0:0:0:0:0:0:1', '::0001', '0::1']) expect(isLoopbackHost(host), host).toBe(true);
  });

  it('wildcards, other IPv4 and IPv6 addresses and names are not', () => {
    fc.assert(fc.property(fc.ipV4(), (ip) => isLoopbackHost(ip) === ip.startsWith('127.')));
    for (const host of ['0.0.0.0', '::', '::2', '1::1', '::ffff:10.0.0.1', '10.0.0.1', '192.168.1.10', 'example.com', 'localhost.example.com', '']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});
