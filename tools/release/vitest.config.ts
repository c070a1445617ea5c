import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The end-to-end test has its own target (e2e): it needs every package built and takes minutes.
export default mergeConfig(shared, defineConfig({ test: { exclude: ['test/e2e/**', '**/node_modules/**'] } }));
