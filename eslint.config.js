import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * A small, standard config: ESLint's and typescript-eslint's recommended rules,
 * the rules of hooks, and jsx-a11y's recommended accessibility checks. `.ci/run`
 * runs it; it must stay clean (no warnings allowed).
 */
export default tseslint.config(
  { ignores: ['build/', 'node_modules/', '.data/', 'tests/.tmp/', 'test-results/', 'playwright-report/', 'prisma-free-migrations/.snapshot-*'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // `_name` marks a value that is unused on purpose (e.g. destructured away).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // The input rules match control characters on purpose (refusing them in text, headers and paths).
      'no-control-regex': 'off',
    },
  },
  {
    files: ['app/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  { files: ['app/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
);
