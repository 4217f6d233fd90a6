// ESLint runs in `npm test` (npm run lint). The layer rules below say in the editor what
// tests/server/import-rules.test.ts checks over the whole resolved import graph (docs/architecture.md).
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const WHY = {
  server: 'The console and the contract never import the server (docs/architecture.md).',
  console: 'The server and the contract never import the console (docs/architecture.md).',
  routes: 'db/ and integrations/ know no routes or app: routes call them, not the other way round.',
  database: "Routes reach the database through their area's module, never db/ (docs/architecture.md).",
};

/**
 * Import patterns match the import's text, so a forbidden top-level folder is spelled with as many
 * `../` as the importing file is deep: one config per depth of file under `dir`.
 */
function layer(dir, forbidden, extra = []) {
  const dirDepth = dir.split('/').length;
  return [0, 1, 2, 3, 4].map((below) => {
    const toRoot = '../'.repeat(dirDepth + below);
    const patterns = [...forbidden.map(([top, message]) => ({ group: [`${toRoot}${top}`, `${toRoot}${top}/**`], message })), ...extra];
    return { files: [`${dir}/${'*/'.repeat(below)}*.{ts,tsx,mts}`], rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] } };
  });
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/results/**', 'bench/.data/**', 'coverage/**', 'tests/e2e/.artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // Unused names are mistakes; an underscore marks a deliberate one.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      // Our control-character patterns are the point: they find NUL and friends to refuse them.
      'no-control-regex': 'off',
      // A name assigned once after a closure that reads it (a shutdown hook, say) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  ...layer('contract', [
    ['server', WHY.server],
    ['src', WHY.console],
  ]),
  ...layer('src', [['server', WHY.server]]),
  ...layer('server', [['src', WHY.console]]),
  ...layer('server/src/db', [['src', WHY.console]], [{ group: ['**/routes', '**/routes/**', '**/app', '**/app.ts'], message: WHY.routes }]),
  ...layer('server/src/integrations', [['src', WHY.console]], [{ group: ['**/routes', '**/routes/**', '**/app', '**/app.ts'], message: WHY.routes }]),
  ...layer('server/src/routes', [['src', WHY.console]], [{ group: ['../db', '../db/**'], message: WHY.database }]),
);
