// Keeps the best three suggestions: prefix matches first, then distance, then name (UTF-16
// code-unit order, the default string order).

interface Ranked {
  readonly prefix: boolean;
  readonly distance: number;
  readonly name: string;
}

function ranksBefore(prefix: boolean, distance: number, name: string, other: Ranked): boolean {
  if (prefix !== other.prefix) return prefix;
  if (distance !== other.distance) return distance < other.distance;
  return name < other.name;
}

function before(a: Ranked, b: Ranked): boolean {
  return ranksBefore(a.prefix, a.distance, a.name, b);
}

export const SUGGESTION_LIMIT = 3;

export class BestThree {
  readonly #kept: Ranked[] = [];

  offer(prefix: boolean, distance: number, name: string): void {
    const kept = this.#kept;
    const last = kept[kept.length - 1];
    if (kept.length === SUGGESTION_LIMIT && last !== undefined && !ranksBefore(prefix, distance, name, last)) return;
    const candidate: Ranked = { prefix, distance, name };
    let at = kept.length;
    while (at > 0 && before(candidate, kept[at - 1] as Ranked)) at -= 1;
    kept.splice(at, 0, candidate);
    if (kept.length > SUGGESTION_LIMIT) kept.pop();
  }

  /** False when a candidate ranked (prefix, distance, name) could not enter the three. */
  admits(prefix: boolean, distance: number, name: string): boolean {
    const last = this.#kept[SUGGESTION_LIMIT - 1];
    return last === undefined || ranksBefore(prefix, distance, name, last);
  }

  names(): string[] {
    return this.#kept.map((ranked) => ranked.name);
  }
}
