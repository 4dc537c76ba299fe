// ESLint (flat config): typescript-eslint's recommended rules for every TypeScript file; Prettier owns formatting.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import ts from 'typescript';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
/** Folders that hold no hand-written source of the project. */
const NOT_SOURCE = new Set(['node_modules', 'cdk.out', '.data', 'build', 'coverage', 'test-results', 'dist', '.git']);
const SOURCE_FILE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** The file a relative module specifier of `fromFile` names (undefined if none), and its folder (a folder named itself: its index). */
function resolveImport(fromFile, specifier) {
  const target = path.resolve(path.dirname(fromFile), specifier);
  const file = ['', '.ts', '.js', '.cjs', '.mjs', '.d.ts', '/index.ts', '/index.js']
    .map((ext) => target + ext)
    .find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  return { file: file && path.relative(ROOT, file), folder: path.relative(ROOT, file ? path.dirname(file) : target) };
}

/** An import or export naming only types: the compiler erases it, so it loads nothing. */
function typeOnly(node) {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : [];
    return Boolean(clause && (clause.isTypeOnly || (!clause.name && named.length && named.every((element) => element.isTypeOnly))));
  }
  if (ts.isExportDeclaration(node)) {
    const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : [];
    return node.isTypeOnly || (named.length > 0 && named.every((element) => element.isTypeOnly));
  }
  return ts.isImportTypeNode(node) || (ts.isImportEqualsDeclaration(node) && node.isTypeOnly);
}

/** The module specifier of an import, an export from, a require() or an import(), or undefined for any other node. */
function specifierOf(node) {
  if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) return node.moduleSpecifier;
  if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) return node.moduleReference.expression;
  if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) return node.argument.literal;
  const call =
    ts.isCallExpression(node) &&
    (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'));
  return call ? node.arguments[0] : undefined;
}

/** A file's relative imports, each with whether it is type-only. */
function importsOf(file) {
  const found = [];
  const visit = (node) => {
    const specifier = specifierOf(node);
    if (specifier && ts.isStringLiteralLike(specifier) && specifier.text.startsWith('.')) {
      found.push({ specifier: specifier.text, typeOnly: typeOnly(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest));
  return found;
}

let graphs;
/**
 * The project's imports, read from its files once per lint run: each folder →
 * the other folders its files import (any import), and each file → the files
 * it loads (type-only imports left out: they are erased).
 */
function importGraphs() {
  if (graphs) return graphs;
  graphs = { folders: new Map(), files: new Map() };
  const add = (graph, from, to) => (graph.get(from) ?? graph.set(from, new Set()).get(from)).add(to);
  const visit = (folder) => {
    for (const entry of readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!NOT_SOURCE.has(entry.name)) visit(relative);
      } else if (SOURCE_FILE.test(entry.name) && !entry.name.includes('.generated.')) {
        const file = path.join(ROOT, relative);
        for (const { specifier, typeOnly } of importsOf(file)) {
          const to = resolveImport(file, specifier);
          if (to.folder !== folder) add(graphs.folders, folder, to.folder);
          if (!typeOnly && to.file && to.file !== relative) add(graphs.files, relative, to.file);
        }
      }
    }
  };
  visit('');
  return graphs;
}

/** A way from `from` to `to` through a graph's edges, as the list of its nodes, or undefined. */
function importPath(graph, from, to) {
  const cameFrom = new Map([[from, undefined]]);
  const queue = [from];
  while (queue.length) {
    const node = queue.shift();
    if (node === to) {
      const way = [];
      for (let at = to; at !== undefined; at = cameFrom.get(at)) way.unshift(at);
      return way;
    }
    for (const next of graph.get(node) ?? []) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/** Calls `check(source, typeOnly)` for each module specifier of the linted file (typeOnly: the import names only types). */
function eachImport(check) {
  // A default or namespace import has no importKind of its own: only `import type` makes it type-only.
  const allTypes = (specifiers, kind) => specifiers.length > 0 && specifiers.every((one) => one[kind] === 'type');
  return {
    ImportDeclaration: (node) => check(node.source, node.importKind === 'type' || allTypes(node.specifiers, 'importKind')),
    ExportNamedDeclaration: (node) => check(node.source, node.exportKind === 'type' || allTypes(node.specifiers, 'exportKind')),
    ExportAllDeclaration: (node) => check(node.source, node.exportKind === 'type'),
    ImportExpression: (node) => check(node.source, false),
    CallExpression: (node) => node.callee.type === 'Identifier' && node.callee.name === 'require' && check(node.arguments[0], false),
  };
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
    return eachImport((source) => {
      if (typeof source?.value !== 'string' || !source.value.startsWith('.')) return;
      const to = resolveImport(file, source.value).folder;
      if (to === from) return;
      const way = importPath(importGraphs().folders, to, from);
      if (way) context.report({ node: source, messageId: 'cycle', data: { from, to, way: way.join(' → ') } });
    });
  },
};

/**
 * Files load one way: a file may import another only when nothing that one
 * loads leads back to it, so no module ever runs against a half-loaded one.
 * Imports of types only are erased when compiled and may point either way.
 */
const noFileCycle = {
  meta: {
    type: 'problem',
    messages: {
      cycle:
        '{{from}} imports {{to}}, which leads back to {{from}} ({{way}}): files import one way; move what both need to the file whose idea it is',
    },
    schema: [],
  },
  create(context) {
    const from = path.relative(ROOT, context.filename);
    return eachImport((source, typeOnly) => {
      if (typeOnly || typeof source?.value !== 'string' || !source.value.startsWith('.')) return;
      const to = resolveImport(context.filename, source.value).file;
      const way = to && to !== from && importPath(importGraphs().files, to, from);
      if (way) context.report({ node: source, messageId: 'cycle', data: { from, to, way: way.join(' → ') } });
    });
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
    plugins: { layout: { rules: { 'no-folder-cycle': noFolderCycle, 'no-file-cycle': noFileCycle } } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
      'layout/no-folder-cycle': 'error',
      'layout/no-file-cycle': 'error',
      // One idea per file: a hand-written file over this holds more than one (generated files are ignored above).
      'max-lines': ['error', { max: 400 }],
    },
  },
  // The import rules of the layout (ARCHITECTURE.md): bin → lib → functions → shared/octo → shared/http → shared/api → domains → shared/core, shared/db;
  // beside them layout/no-folder-cycle refuses any import that leads back to its own folder, and layout/no-file-cycle any (not of types only) back to its own file.
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
