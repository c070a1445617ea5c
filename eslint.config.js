// One flat config for the whole workspace. Package-specific rules (the evaluator's
// purity rule) live in the block that names that package's files.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

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
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/*.test-d.ts', '**/test/**/*.ts', '**/bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
