// ESLint (flat config): typescript-eslint's recommended rules for every TypeScript file; Prettier owns formatting.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
/** Folders that hold no hand-written source of the project. */
const NOT_SOURCE = new Set(['node_modules', 'cdk.out', '.data', 'build', 'coverage', 'test-results', 'dist', '.git']);
const SOURCE_FILE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"](\.\.?\/[^'"]*)['"]/gm;

/** The folder a relative module specifier of `fromFile` names: the folder of the file it resolves to, or the folder itself (its index). */
function folderOf(fromFile, specifier) {
  const target = path.resolve(path.dirname(fromFile), specifier);
  const file = ['', '.ts', '.js', '.cjs', '.mjs', '.d.ts']
    .map((ext) => target + ext)
    .find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  return path.relative(ROOT, file ? path.dirname(file) : target);
}

let folderImports;
/** Each folder of the project → the other folders its files import, read from the files once per lint run. */
function folderGraph() {
  if (folderImports) return folderImports;
  folderImports = new Map();
  const visit = (folder) => {
    for (const entry of readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!NOT_SOURCE.has(entry.name)) visit(relative);
      } else if (SOURCE_FILE.test(entry.name) && !entry.name.includes('.generated.')) {
        const file = path.join(ROOT, relative);
        for (const [, specifier] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
          const to = folderOf(file, specifier);
          if (to !== folder) (folderImports.get(folder) ?? folderImports.set(folder, new Set()).get(folder)).add(to);
        }
      }
    }
  };
  visit('');
  return folderImports;
}

/** A way from folder `from` to folder `to` through the folders' imports, as the list of folders, or undefined. */
function importPath(from, to) {
  const cameFrom = new Map([[from, undefined]]);
  const queue = [from];
  while (queue.length) {
    const folder = queue.shift();
    if (folder === to) {
      const way = [];
      for (let at = to; at !== undefined; at = cameFrom.get(at)) way.unshift(at);
      return way;
    }
    for (const next of folderGraph().get(folder) ?? []) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, folder);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/**
 * Folders import one way: a file may import another folder only when nothing
 * in that folder leads back to its own (shared/http importing shared/octo
 * while shared/octo imports shared/http is a cycle, whatever the layers say).
 */
const noFolderCycle = {
  meta: {
    type: 'problem',
    messages: { cycle: '{{from}} imports {{to}}, which leads back to {{from}} ({{way}}): folders import one way' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const from = path.relative(ROOT, path.dirname(file));
    const check = (source) => {
      if (typeof source?.value !== 'string' || !source.value.startsWith('.')) return;
      const to = folderOf(file, source.value);
      if (to === from) return;
      const way = importPath(to, from);
      if (way) context.report({ node: source, messageId: 'cycle', data: { from, to, way: way.join(' → ') } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      CallExpression: (node) => node.callee.type === 'Identifier' && node.callee.name === 'require' && check(node.arguments[0]),
    };
  },
};

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
const NO_OTHER_FACE = {
  group: ['**/octo/**'],
  message: "shared/http knows no face but its own (the marketplace's): OCTo's parts live in shared/octo, which builds on shared/http",
};
/** The contract describes the OCTo routes with OCTo's own schemas (shared/octo/schemas/), which read only the domains. */
const NO_FACES_BUT_OCTO_SCHEMAS = { ...NO_FACES, group: [...NO_FACES.group, '!**/octo/schemas/', '!**/octo/schemas/**'] };
const NO_CONTRACT = {
  group: ['**/api/**'],
  message:
    'the contract (shared/api) reads the domains, never the other way round: keep the rule in the domain and let shared/api describe it',
};
const DOMAINS = ['catalog', 'booking', 'usage', 'accounts', 'webhooks', 'changes'];
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
    plugins: { layout: { rules: { 'no-folder-cycle': noFolderCycle } } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
      'layout/no-folder-cycle': 'error',
      // One idea per file: a hand-written file over this holds more than one (generated files are ignored above).
      'max-lines': ['error', { max: 400 }],
    },
  },
  // The import rules of the layout (ARCHITECTURE.md): bin → lib → functions → shared/octo → shared/http → shared/api → domains → shared/core, shared/db;
  // beside them layout/no-folder-cycle refuses any import that leads back to its own folder.
  layer(['bin/**'], [NO_SCRIPTS, NO_TEMPORAL]),
  layer(['scripts/**', 'dashboard/**'], [NO_TEMPORAL]),
  layer(['shared/http/**'], [NO_LIB, NO_FUNCTIONS, NO_SCRIPTS, NO_TEMPORAL, NO_OTHER_FACE]),
  layer(['shared/octo/**'], [NO_LIB, NO_FUNCTIONS, NO_SCRIPTS, NO_TEMPORAL]),
  layer(['shared/octo/schemas/**'], [NO_LIB, NO_FUNCTIONS, NO_SCRIPTS, NO_TEMPORAL, NO_FACES, NO_CONTRACT]),
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
