// ESLint (flat config): typescript-eslint's recommended rules (not type-aware, to stay fast) and Vigil's
// architecture rules from eslint/vigil-plugin.js (see docs/architecture.md). `npm run lint`; part of
// `npm run check`.
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import vigil from './eslint/vigil-plugin.js';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'web/dist/', 'coverage/', 'data/', '.vigil-tmp/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // 95 uses, mostly cloud providers' and test servers' untyped JSON; typing each answer is its own job.
      '@typescript-eslint/no-explicit-any': 'off',
      // `_name` marks a parameter or binding kept for position or to leave it out of a rest object.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // `let [lo, hi]` where only one is reassigned stays one declaration; `let conn` declared before the
      // callbacks that read it (assigned once, after them) stays where it is.
      'prefer-const': ['error', { destructuring: 'all', ignoreReadBeforeAssign: true }],
      // Comma statements (`a(), b()`) are used on purpose in a few tight loops.
      '@typescript-eslint/no-unused-expressions': 'off',
      // Control characters in patterns are deliberate: they strip or reject NUL and other control bytes.
      'no-control-regex': 'off',
      // Reports defaults that a try/catch overwrites (`let ip = ''; try { ip = ... }`); they read clearer kept.
      'no-useless-assignment': 'off',
      // New in ESLint 10: adding `cause` to rethrown errors changes what is logged; a change of its own.
      'preserve-caught-error': 'off',
    },
  },
  {
    files: ['web/src/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['**/*.ts', '**/*.mjs', '**/*.js'],
    plugins: { vigil },
    rules: {
      'vigil/layers': 'error',
      'vigil/engine-surface': 'error',
      'vigil/sql-in-stores': 'error',
    },
  },
);
