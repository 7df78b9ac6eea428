import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers of app/, bottom first. Imports point down only: a file may import
 * its own layer and the layers listed in `may`, nothing else of the app
 * (docs/architecture-and-layers.md). Pure helpers and browser-safe domain
 * definitions are importable from anywhere; the browser's components never
 * reach the server's layers.
 */
const layers = {
  lib: { paths: ['app/lib', 'app/i18n.ts'], may: [] },
  domain: { paths: ['app/domain', 'app/calculator', 'app/slicer'], may: ['lib'] },
  entities: { paths: ['app/entities'], may: ['lib', 'domain'] },
  services: { paths: ['app/services', 'app/i18n.server.ts'], may: ['lib', 'domain', 'entities'] },
  models: { paths: ['app/models'], may: ['lib', 'domain', 'entities', 'services'] },
  web: { paths: ['app/web'], may: ['lib', 'domain', 'entities', 'services', 'models'] },
  server: { paths: ['app/server'], may: ['lib', 'domain', 'services'] },
  components: { paths: ['app/components', 'app/i18n.client.ts'], may: ['lib', 'domain'] },
  // routes, root.tsx and the entry files sit on top and may import every layer.
};

const layerZones = Object.entries(layers).map(([name, layer]) => {
  const allowed = new Set([name, ...layer.may]);
  const others = Object.entries(layers).filter(([other]) => !allowed.has(other));
  return {
    target: layer.paths.map((path) => `./${path}`),
    from: [...others.flatMap(([, other]) => other.paths), 'app/routes', 'app/root.tsx', 'app/entry.server.tsx', 'app/entry.client.tsx'].map((path) => `./${path}`),
    message: `${name} may import only ${[...allowed].join(', ')}: imports point down (docs/architecture-and-layers.md).`,
  };
});

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
  {
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'import-x/no-cycle': ['error', { maxDepth: Infinity }],
    },
  },
);
