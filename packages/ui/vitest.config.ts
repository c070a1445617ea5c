import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      // Resolves the Chromium executable once before any file runs (extracting the bundled one is
      // not safe to do from two files at the same time).
      globalSetup: [fileURLToPath(new URL('./test/browser/chromium-setup.ts', import.meta.url))],
    },
  }),
);
