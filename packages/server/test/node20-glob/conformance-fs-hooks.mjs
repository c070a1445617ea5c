// Module resolution hooks: the conformance suite's `import ... from "fs"` resolves to
// fs-with-glob-sync.mjs instead. Every other importer, and every other module, is untouched.
const SUITE = '/node_modules/@modelcontextprotocol/conformance/';
const FS_WITH_GLOB_SYNC = new URL('./fs-with-glob-sync.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes(SUITE)) {
    return { url: FS_WITH_GLOB_SYNC, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
