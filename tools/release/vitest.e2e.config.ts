import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// One file, steps in order, each bounded; the whole run stays well under CI's limit.
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      include: ['test/e2e/**/*.test.ts'],
      testTimeout: 300_000,
      hookTimeout: 180_000,
      fileParallelism: false,
      typecheck: { enabled: false },
    },
  }),
);
