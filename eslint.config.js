// One flat config for the whole workspace. Package-specific rules (the evaluator's
// purity rule) live in the block that names that package's files.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// `key in object` is also true for inherited keys: with a caller's key (`__proto__`,
// `constructor`, `toString`) it answers yes for an object that has no such entry. A literal key we
// chose ourselves is a type narrowing and stays allowed.
const OWN_KEY_RULE = {
  selector: "BinaryExpression[operator='in'][left.type!='Literal']",
  message: 'A computed key with `in` also finds inherited keys (__proto__, constructor): use Object.hasOwn(object, key), or a Map or Set.',
};

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/.nx/**', '**/coverage/**', 'packages/schema/src/generated/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "ImportDeclaration[source.value=/(^|\\/)(utils|helpers|misc|common)(\\.[jt]s)?$/]", message: 'Name a module after the one idea it holds.' },
        OWN_KEY_RULE,
      ],
    },
  },
  (() => {
    // @mcpproxy/evaluator is pure: no I/O, no clock, no randomness, no dependency but
    // @mcpproxy/schema. Its test (packages/evaluator/test/purity-lint.test.ts) proves each ban fires.
    const builtins = 'assert|async_hooks|buffer|child_process|cluster|console|constants|crypto|dgram|diagnostics_channel|dns|domain|events|fs|http|http2|https|inspector|module|net|os|path|perf_hooks|process|punycode|querystring|readline|repl|stream|string_decoder|sys|timers|tls|trace_events|tty|url|util|v8|vm|wasi|worker_threads|zlib';
    const network = 'undici|node-fetch|cross-fetch|isomorphic-fetch|axios|got|ky|ws|superagent|request|needle|socket\\.io-client';
    const pure = 'The evaluator is pure: no I/O, clock, randomness or global state.';
    return {
      files: ['packages/evaluator/src/**/*.ts'],
      rules: {
        'no-restricted-imports': ['error', {
          patterns: [
            { regex: '^node:', message: `${pure} No Node built-ins.` },
            { regex: `^(${builtins})(/.*)?$`, message: `${pure} No Node built-ins.` },
            { regex: `^(${network})(/.*)?$`, message: `${pure} No network clients.` },
            { regex: `^(?!\\.{1,2}/|@mcpproxy/schema$|node:)(?!(${builtins}|${network})(/.*)?$)`, message: 'The evaluator depends on @mcpproxy/schema only.' },
          ],
        }],
        'no-restricted-globals': ['error',
          ...['Date', 'fetch', 'process', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'performance', 'crypto',
            'clearTimeout', 'clearInterval', 'clearImmediate', 'require', 'module', 'globalThis', 'global', 'Buffer',
            'XMLHttpRequest', 'WebSocket', 'EventSource', 'navigator', 'Intl'].map((name) => ({ name, message: pure })),
        ],
        'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: pure }],
        'no-restricted-syntax': ['error',
          { selector: "ImportDeclaration[source.value=/(^|\\/)(utils|helpers|misc|common)(\\.[jt]s)?$/]", message: 'Name a module after the one idea it holds.' },
          { selector: 'ImportExpression', message: `${pure} No dynamic import.` },
          OWN_KEY_RULE,
        ],
      },
    };
  })(),
  {
    // The operator UI runs in the browser.
    files: ['packages/ui/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.test.ts', '**/*.test-d.ts', '**/test/**/*.ts', '**/bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
