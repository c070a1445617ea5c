import { isIPv4, isIPv6 } from 'node:net';

/**
 * Whether a listen host is reachable only from this machine: `localhost`, 127.0.0.0/8, ::1 (also as
 * ::ffff:127.x.y.z). A wildcard (0.0.0.0, ::) or any other address is reachable from the network.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  if (name === 'localhost') return true;
  if (isIPv4(name)) return name.startsWith('127.');
  if (!isIPv6(name)) return false;
  if (name.startsWith('::ffff:')) return isIPv4(name.slice(7)) && name.slice(7).startsWith('127.');
  // ::1 in any of its spellings (0:0:0:0:0:0:0:1, ::0001, ...): every group 0 but a last group of 1.
  const groups = name.split('::').flatMap((part) => (part === '' ? [] : part.split(':')));
  const last = groups.at(-1);
  return last !== undefined && Number.parseInt(last, 16) === 1 && groups.slice(0, -1).every((group) => Number.parseInt(group, 16) === 0);
}
