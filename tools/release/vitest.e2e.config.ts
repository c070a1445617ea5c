import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// One file, steps in order, each bounded; the whole run stays well under CI's limit.
const config = mergeConfig(
  shared,
  defineConfig({
    test: {
      testTimeout: 300_000,
      hookTimeout: 180_000,
      fileParallelism: false,
      typecheck: { enabled: false },
    },
  }),
);
// mergeConfig concatenates arrays: replace the shared include instead, so only the e2e runs here.
config.test = { ...config.test, include: ['test/e2e/**/*.test.ts'] };
export default config;
