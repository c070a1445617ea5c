/**
 * Which open stream to end when a new one takes the count over its cap: the oldest stream of the
 * holder that has the most, never the newcomer. A flood from one caller (one agent token, or the
 * anonymous loopback caller) then evicts only its own streams, never another caller's.
 */
export function streamToEvict<T extends { readonly seq: number }>(streams: Iterable<T>, newcomer: T, holderOf: (stream: T) => string): T | undefined {
  const all = [...streams];
  const held = new Map<string, number>();
  for (const stream of all) held.set(holderOf(stream), (held.get(holderOf(stream)) ?? 0) + 1);
  const most = Math.max(...held.values());
  let oldest: T | undefined;
  for (const stream of all) {
    if (stream === newcomer || held.get(holderOf(stream)) !== most) continue;
    if (oldest === undefined || stream.seq < oldest.seq) oldest = stream;
  }
  return oldest;
}
