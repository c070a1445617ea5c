import { defineConfig } from 'vite';

// The gateway serves this build at /ui/ under a Content-Security-Policy of 'self' only: no inline
// script or style may appear, so nothing is inlined (assetsInlineLimit 0) and no source map ships.
export default defineConfig({
  base: '/ui/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
});
