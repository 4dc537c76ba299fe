import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { FUNCTION_NODE_OPTIONS, bundlingOptions, esbuildOptions } from '../../lib/aws/bundling';
import { recordPlatformEventEntry } from '../../shared/api/event-rules';
import { authorizerEntry, entryPath, PROJECT_ROOT, routes } from '../../shared/api/routes';
import { fixed, median, printTable, ratio } from './harness';

const POWERTOOLS_MODULES = [
  '@aws-lambda-powertools/logger',
  '@aws-lambda-powertools/metrics',
  '@aws-lambda-powertools/tracer',
  '@aws-lambda-powertools/tracer/middleware',
];

const SIZE_BUDGET_KB = 400;
const LOAD_BUDGET_MS = 100;
const LOAD_RUNS = 5;

interface Bundle {
  name: string;
  file: string;
  kb: number;
  /** The three largest contributors to the output, by npm scope or package. */
  largest: string;
}

/** npm scope or package a bundled input comes from; the project's own code is "(project)". */
function origin(input: string): string {
  const at = input.lastIndexOf('node_modules/');
  return at < 0 ? '(project)' : input.slice(at + 'node_modules/'.length).split('/')[0];
}

function largestShares(metafile: Metafile, outfile: string): string {
  const output = Object.entries(metafile.outputs).find(([file]) => path.resolve(file) === outfile)?.[1];
  if (!output) return '';
  const byOrigin = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    byOrigin.set(origin(input), (byOrigin.get(origin(input)) ?? 0) + bytesInOutput);
  }
  const total = [...byOrigin.values()].reduce((sum, bytes) => sum + bytes, 0);
  return [...byOrigin.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, bytes]) => `${name} ${Math.round((bytes / total) * 100)}%`)
    .join(', ');
}

/** Bundles one function as the stack does. */
async function bundle(name: string, entry: string | { contents: string }, outDir: string): Promise<Bundle> {
  const outfile = path.join(outDir, name, 'index.js');
  const result = await build({
    ...(typeof entry === 'string' ? { entryPoints: [entryPath(entry)] } : { stdin: { ...entry, resolveDir: PROJECT_ROOT, loader: 'js' } }),
    outfile,
    ...esbuildOptions(),
    metafile: true,
    logLevel: 'warning',
  });
  return { name, file: outfile, kb: statSync(outfile).size / 1024, largest: largestShares(result.metafile, outfile) };
}

/** A fresh Node process that times its own require of `file` (nothing when undefined) and prints the milliseconds. */
function loadScript(file: string | undefined): string {
  const load = file ? `require(${JSON.stringify(file)});` : '';
  // The elapsed time is taken before process.stdout is touched: creating the stream is not loading the module.
  return `const s=process.hrtime.bigint();${load}const ms=Number(process.hrtime.bigint()-s)/1e6;process.stdout.write(String(ms))`;
}

/** What a cold Lambda container has: the function's configuration in its environment, nothing from this shell. */
const functionEnvironment = {
  PATH: process.env.PATH ?? '',
  TABLE_NAME: 'ota-usage-bench',
  AWS_REGION: 'eu-west-1',
  NODE_OPTIONS: FUNCTION_NODE_OPTIONS,
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

function timeFreshNode(file: string | undefined): Promise<{ requireMs: number; processMs: number }> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', loadScript(file)], { env: functionEnvironment }, (error, stdout, stderr) => {
      const processMs = Number(process.hrtime.bigint() - start) / 1e6;
      if (error) reject(new Error(`Loading ${file ?? 'nothing'} failed: ${stderr || error.message}`));
      else resolve({ requireMs: Number(stdout), processMs });
    });
  });
}

/** Bundle size and cold module load time of every route and the authorizer. */
export async function benchBundles(outDir: string): Promise<void> {
  const targets = [
    ...routes.map((route) => ({ name: route.id, entry: route.entry })),
    { name: 'authorizer', entry: authorizerEntry },
    { name: 'record-platform-event', entry: recordPlatformEventEntry },
    // Not a function: what the observability libraries (Powertools logger, metrics, tracer with X-Ray) cost to load by themselves.
    { name: '(Powertools alone)', entry: { contents: POWERTOOLS_MODULES.map((name) => `require('${name}');`).join('') } },
  ];
  const bundles: Bundle[] = [];
  for (const target of targets) bundles.push(await bundle(target.name, target.entry, outDir));

  // Round-robin over the bundles and the empty baseline, so that a noisy moment hits them all alike.
  const runs = new Map<string, { requireMs: number[]; processMs: number[] }>(
    ['', ...bundles.map((b) => b.file)].map((file) => [file, { requireMs: [], processMs: [] }]),
  );
  for (let run = 0; run < LOAD_RUNS; run += 1) {
    for (const [file, samples] of runs) {
      const { requireMs, processMs } = await timeFreshNode(file || undefined);
      samples.requireMs.push(requireMs);
      samples.processMs.push(processMs);
    }
  }
  const empty = runs.get('')!;
  const emptyProcessMs = median(empty.processMs);

  const { minify, sourceMap, target, mainFields, externalModules } = bundlingOptions;
  console.log(
    `\nBundles: esbuild with lib/bundling.ts (minify ${minify}, source map ${sourceMap}, target ${target}, platform node, cjs, ` +
      `main fields ${mainFields?.join(',') ?? 'default'}, ${externalModules?.length ?? 0} externals); KB = the .js file, map not counted`,
  );
  console.log(
    `Load: ${LOAD_RUNS} fresh \`node -e\` processes per bundle with NODE_OPTIONS=${FUNCTION_NODE_OPTIONS}, median and best; ` +
      `load average ${os.loadavg()[0].toFixed(2)} now`,
  );
  console.log(
    `Baseline: a fresh \`node -e\` requiring nothing takes ${fixed(emptyProcessMs, 1)} ms start to exit ` +
      `(its own timer reads ${fixed(median(empty.requireMs), 3)} ms)`,
  );
  printTable(
    [
      'bundle',
      'KB',
      `≤${SIZE_BUDGET_KB}`,
      'require ms',
      `≤${LOAD_BUDGET_MS}`,
      'best ms',
      'process ms',
      'minus empty',
      'vs empty',
      'largest shares of the output',
    ],
    bundles.map((b) => {
      const samples = runs.get(b.file)!;
      const requireMs = median(samples.requireMs);
      const processMs = median(samples.processMs);
      return [
        b.name,
        fixed(b.kb, 1),
        b.kb <= SIZE_BUDGET_KB ? 'yes' : 'no',
        fixed(requireMs, 1),
        requireMs <= LOAD_BUDGET_MS ? 'yes' : 'no',
        fixed(Math.min(...samples.requireMs), 1),
        fixed(processMs, 1),
        fixed(processMs - emptyProcessMs, 1),
        ratio(processMs / emptyProcessMs),
        b.largest,
      ];
    }),
    ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
  );
}
