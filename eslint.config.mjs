// ESLint (flat config): typescript-eslint's recommended rules for every TypeScript file; Prettier owns formatting.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** Forbids `files` every import that one of `patterns` matches (one entry per folder: a later entry would replace it). */
const layer = (files, patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });
const NO_LIB = { group: ['**/lib/**'], message: 'shared/ and functions/ never import lib/' };
const NO_FUNCTIONS = { group: ['**/functions/**'], message: 'shared/ never imports functions/' };
const NO_SCRIPTS = { group: ['**/scripts/**'], message: 'scripts/ are tools: the product never depends on them' };
const NO_TEMPORAL = {
  group: ['temporal-polyfill', 'temporal-polyfill/**'],
  message: 'the Temporal polyfill only cross-checks shared/core/calendar.ts in tests: the product reads time zones through Intl',
};
const NO_FACES = {
  group: ['**/http/**', '**/octo/**'],
  message:
    'the contract and the domains speak no HTTP and no OCTo: throw shared/core errors and let the faces (shared/http, shared/octo) render them',
};
/** The contract describes the OCTo routes with OCTo's own schemas (shared/octo/schemas.ts), which read only the domains. */
const NO_FACES_BUT_OCTO_SCHEMAS = { ...NO_FACES, group: [...NO_FACES.group, '!**/octo/schemas'] };
const NO_CONTRACT = {
  group: ['**/api/**'],
  message:
    'the contract (shared/api) reads the domains, never the other way round: keep the rule in the domain and let shared/api describe it',
};
const DOMAINS = ['catalog', 'booking', 'usage', 'accounts', 'webhooks'];
const NO_DOMAIN = {
  group: DOMAINS.flatMap((domain) => [`../${domain}/**`, `**/shared/${domain}/**`]),
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
  // The import rules of the layout (ARCHITECTURE.md): bin → lib → functions → shared/http, shared/octo → shared/api → domains → shared/core, shared/db.
  layer(['bin/**'], [NO_SCRIPTS, NO_TEMPORAL]),
  layer(['scripts/**', 'dashboard/**'], [NO_TEMPORAL]),
  layer(['shared/http/**', 'shared/octo/**'], [NO_LIB, NO_FUNCTIONS, NO_SCRIPTS, NO_TEMPORAL]),
  layer(['shared/octo/schemas.ts'], [NO_LIB, NO_FUNCTIONS, NO_SCRIPTS, NO_TEMPORAL, NO_FACES, NO_CONTRACT]),
  layer(['shared/api/**'], [NO_LIB, NO_FUNCTIONS, NO_SCRIPTS, NO_TEMPORAL, NO_FACES_BUT_OCTO_SCHEMAS]),
  layer(
    DOMAINS.map((domain) => `shared/${domain}/**`),
    [NO_LIB, NO_FUNCTIONS, NO_SCRIPTS, NO_TEMPORAL, NO_FACES, NO_CONTRACT],
  ),
  layer(['shared/core/**', 'shared/db/**'], [NO_LIB, NO_FUNCTIONS, NO_SCRIPTS, NO_TEMPORAL, NO_FACES, NO_CONTRACT, NO_DOMAIN]),
  layer(['functions/**'], [NO_LIB, NO_SCRIPTS, NO_TEMPORAL]),
  layer(
    ['lib/aws/**'],
    [NO_SCRIPTS, NO_TEMPORAL, { group: ['../local/**', '**/lib/local/**'], message: 'lib/aws and lib/local never import each other' }],
  ),
  layer(
    ['lib/local/**'],
    [NO_SCRIPTS, NO_TEMPORAL, { group: ['../aws/**', '**/lib/aws/**'], message: 'lib/aws and lib/local never import each other' }],
  ),
  {
    // The service logs through one logger (shared/core/observability.ts); console output is for the entry points, tools and tests.
    files: ['shared/**/*.ts', 'functions/**/*.ts', 'lib/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
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
