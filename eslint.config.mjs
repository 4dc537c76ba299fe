// ESLint (flat config): typescript-eslint's recommended rules for every TypeScript file; Prettier owns formatting.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** Forbids `files` every import that one of `patterns` matches (one entry per folder: a later entry would replace it). */
const layer = (files, patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });
const NO_LIB = { group: ['**/lib/**'], message: 'shared/ and functions/ never import lib/' };
const NO_FUNCTIONS = { group: ['**/functions/**'], message: 'shared/ never imports functions/' };
const NO_HTTP = { group: ['**/http/**'], message: 'domain code speaks no HTTP: throw shared/core errors and let shared/http map them' };
const NO_DOMAIN = {
  group: ['../catalog/**', '../booking/**', '../usage/**', '../accounts/**'],
  message: 'shared/core and shared/db sit below every domain',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'cdk.out/',
      '.data/',
      'build/',
      'coverage/',
      'test-results/',
      'dashboard/dist/',
      '**/*.generated.js',
      '**/*.generated.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  // The import rules of the layout (README, "How it is built"): arrows point down only.
  layer(['shared/api/**', 'shared/http/**'], [NO_LIB, NO_FUNCTIONS]),
  layer(['shared/catalog/**', 'shared/booking/**', 'shared/usage/**', 'shared/accounts/**'], [NO_LIB, NO_FUNCTIONS, NO_HTTP]),
  layer(['shared/core/**', 'shared/db/**'], [NO_LIB, NO_FUNCTIONS, NO_HTTP, NO_DOMAIN]),
  layer(['functions/**'], [NO_LIB]),
  layer(['lib/aws/**'], [{ group: ['../local/**', '**/lib/local/**'], message: 'lib/aws and lib/local never import each other' }]),
  layer(['lib/local/**'], [{ group: ['../aws/**', '**/lib/aws/**'], message: 'lib/aws and lib/local never import each other' }]),
  {
    // Tests read parsed JSON responses and documents by path.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', __dirname: 'readonly' } },
  },
  prettier,
);
