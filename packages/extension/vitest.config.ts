import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      // Load the built @mcpproxy/schema with Node's own ESM loader: its standalone validators
      // import ajv's CommonJS runtime, whose default export vite's CJS interop would unwrap once too often.
      server: { deps: { external: [/packages\/schema\/dist\//] } },
    },
  }),
);
