// What a registry command cannot write: behaviour and the tests that pin it on purpose. The
// list is printed after every successful command; MAINTAINERS.md lists the same pinned tests.
import type { ChangeKind } from './registry-changes.js';

/** Tests that pin the registry on purpose: a registry change fails them until a person looks. */
export const PINNED_TESTS: readonly { readonly file: string; readonly pins: string }[] = [
  { file: 'packages/schema/test/registry-constants.test.ts', pins: 'the settings version, every code, the wire subsets and the table of each code' },
  { file: 'packages/evaluator/test/reason-table.test.ts', pins: 'a hand-written row that produces each emittable code (and every row\'s exact answer)' },
  { file: 'packages/server/test/sabotage-matrix.json', pins: 'a sabotage row for each code on each surface the registry gives it (checked by sabotage-matrix.test.ts)' },
];

export function handwork(kind: ChangeKind, code: string, status: string): string[] {
  const pins = PINNED_TESTS.map((p) => `${p.file}: ${p.pins}`);
  const producer = [
    `the evaluator gate that emits ${code} (packages/evaluator/src: the gate, its place in the precedence, and its README table)`,
    `the gateway state that feeds that gate, if the evaluator cannot see it yet (packages/server)`,
    `the naive oracle's rule for ${code} (packages/evaluator/test/naive-evaluator.ts), so the property tests compare both`,
  ];
  switch (kind) {
    case 'add':
      return status === 'reserved' ? [pins[0] ?? ''] : [...producer, ...pins];
    case 'activate':
      return [...producer, ...pins, `the surfaces' own tests of ${code} (REST, CLI exit code, rider, check mode, resolve as the registry now lists them)`];
    case 'deprecate':
      return [
        `stop emitting ${code} in new producers (the evaluator gate and the naive oracle), or emit its replacement`,
        ...pins,
      ];
    case 'reword':
      return [`packages/evaluator/test/reason-table.test.ts: the rows whose expected detail or remediation quote ${code}'s wording`];
  }
}
