/**
 * The rider benchmarks' 50 IDs, as an agent would send them: 5 served tools on each of the 10
 * upstreams of the catalogue (`up<s>:t<s>_<nnnn>`), under read_only_only (a third of the catalogue is
 * not read-only, so the facet mixes ready and policy_filtered with their wording). `typos` of them
 * become near-miss typos (not_found with did_you_mean, the costliest path).
 */
export function fiftyIdRider(upstreams: number, typos = 0): { tools: { id: string }[]; policy: { read_only_only: true } } {
  const ids = Array.from({ length: upstreams }, (_, s) => Array.from({ length: 5 }, (_, k) => `up${s}:t${s}_${String(k * 17 + s).padStart(4, '0')}`)).flat();
  for (let i = 0; i < typos && i < ids.length; i++) ids[i * 7] = `${ids[i * 7]!.slice(0, -1)}`;
  return { tools: ids.map((id) => ({ id })), policy: { read_only_only: true } };
}

/**
 * `count` different 50-ID riders (another choice of 5 served tools per upstream, in another order),
 * for a rider that is never the same twice: more distinct texts than the seam's evaluation memo
 * keeps (256 per snapshot version), so each one is validated, evaluated and recorded afresh.
 */
export function distinctRiders(upstreams: number, count: number): ReturnType<typeof fiftyIdRider>[] {
  return Array.from({ length: count }, (_, j) => {
    const ids = Array.from({ length: upstreams }, (_, s) => Array.from({ length: 5 }, (_, k) => `up${s}:t${s}_${String((j + k * 20 + s * 3) % 100).padStart(4, '0')}`)).flat();
    const turn = Math.floor(j / 100) % ids.length;
    return { tools: [...ids.slice(turn), ...ids.slice(0, turn)].map((id) => ({ id })), policy: { read_only_only: true as const } };
  });
}
