// Shared test settings: every package's vitest.config.ts spreads these, so timeouts and
// reporters are the same across the workspace.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Bounds for a loaded 2-core CI machine, where starting one Node fixture can take seconds: a
    // test waits for events, so a generous bound costs nothing unless something is broken.
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // expect.poll gives up after 1 s by default: too short for a page or a process on that machine.
    expect: { poll: { timeout: 30_000, interval: 50 } },
    reporters: ['default'],
    // fast-check: a failure prints its seed, its path and the command that replays it.
    setupFiles: [fileURLToPath(new URL('./vitest.fast-check.ts', import.meta.url))],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
