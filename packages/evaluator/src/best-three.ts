// Keeps the best three suggestions: prefix matches first, then distance, then name (UTF-16
// code-unit order, the default string order).

interface Ranked {
  readonly prefix: boolean;
  readonly distance: number;
  readonly name: string;
}

function before(a: Ranked, b: Ranked): boolean {
  if (a.prefix !== b.prefix) return a.prefix;
  if (a.distance !== b.distance) return a.distance < b.distance;
  return a.name < b.name;
}

export const SUGGESTION_LIMIT = 3;

export class BestThree {
  readonly #kept: Ranked[] = [];

  offer(prefix: boolean, distance: number, name: string): void {
    const candidate: Ranked = { prefix, distance, name };
    const kept = this.#kept;
    const last = kept[kept.length - 1];
    if (kept.length === SUGGESTION_LIMIT && last !== undefined && !before(candidate, last)) return;
    let at = kept.length;
    while (at > 0 && before(candidate, kept[at - 1] as Ranked)) at -= 1;
    kept.splice(at, 0, candidate);
    if (kept.length > SUGGESTION_LIMIT) kept.pop();
  }

  names(): string[] {
    return this.#kept.map((ranked) => ranked.name);
  }
}
