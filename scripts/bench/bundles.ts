import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { bundlingOptions, esbuildOptions } from '../../lib/aws/bundling';
import { backgroundFunctions } from '../../shared/api/background';
import { recordPlatformEventEntry } from '../../shared/api/event-rules';
import { authorizerEntry, entryPath, PROJECT_ROOT, routes } from '../../shared/api/routes';
import { fixed, median, printTable, ratio } from './harness';

/** What a function may add to the floor: the logger, metrics, middy and the service's own code fit in it. */
const SIZE_BUDGET_KB = 100;
const LOAD_BUDGET = 1.35;
/** Fresh processes per bundle: fewer leave a median that moves by a tenth of the floor between runs on a shared machine. */
const LOAD_RUNS = 25;

/**
 * The floor every function stands on: the DynamoDB client and its document
 * client, created by the handler on its first call (as shared/db/client.ts
 * creates the service's), bundled with the stack's options. A function
 * cannot load faster than the client it needs. Imported as the functions
 * import it, so esbuild keeps only what is used, as it does for them (a
 * `require` of the two packages keeps all of them: 290 KB).
 */
const FLOOR = {
  name: '(floor: DynamoDB client only)',
  entry: {
    contents:
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';" +
      "import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';" +
      'let documents;' +
      'export const handler = async () => (documents ??= DynamoDBDocumentClient.from(new DynamoDBClient({})));',
  },
};

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
  if (at < 0) return '(project)';
  const [first, second] = input.slice(at + 'node_modules/'.length).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

function largestShares(metafile: Metafile, outfile: string): string {
  const output = Object.entries(metafile.outputs).find(([file]) => path.resolve(file) === outfile)?.[1];
  if (!output) return '';
  const byOrigin = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    byOrigin.set(origin(input), (byOrigin.get(origin(input)) ?? 0) + bytesInOutput);
  }
  return [...byOrigin.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([name, bytes]) => `${name} ${fixed(bytes / 1024, 0)}`)
    .join(', ');
}

/** Bundles one function as the stack does (lib/aws/bundling.ts). */
async function bundle(name: string, entry: string | { contents: string }, outDir: string): Promise<Bundle> {
  const outfile = path.join(outDir, name.replace(/[^a-z0-9-]/gi, '_'), 'index.js');
  const result = await build({
    ...(typeof entry === 'string' ? { entryPoints: [entryPath(entry)] } : { stdin: { ...entry, resolveDir: PROJECT_ROOT, loader: 'js' } }),
    outfile,
    ...esbuildOptions(),
    metafile: true,
    logLevel: 'warning',
  });
  return { name, file: outfile, kb: statSync(outfile).size / 1024, largest: largestShares(result.metafile, outfile) };
}

/** A fresh Node process that times its own require of `file` and prints the milliseconds. */
function loadScript(file: string): string {
  // The elapsed time is taken before process.stdout is touched: creating the stream is not loading the module.
  return `const s=process.hrtime.bigint();require(${JSON.stringify(file)});const ms=Number(process.hrtime.bigint()-s)/1e6;process.stdout.write(String(ms))`;
}

/** What a cold Lambda container has: the function's configuration in its environment, nothing from this shell. */
const functionEnvironment = {
  PATH: process.env.PATH ?? '',
  TABLE_NAME: 'ota-usage-bench',
  AWS_REGION: 'eu-west-1',
};

function timeRequire(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', loadScript(file)], { env: functionEnvironment }, (error, stdout, stderr) => {
      if (error) reject(new Error(`Loading ${file} failed: ${stderr || error.message}`));
      else resolve(Number(stdout));
    });
  });
}

/** Every function the stack deploys: the routes, the authorizer, the platform-event recorder, the sweeps and the webhook sender. */
export const deployedFunctions = (): { name: string; entry: string }[] => [
  ...routes.map((route) => ({ name: route.id, entry: route.entry })),
  { name: 'authorizer', entry: authorizerEntry },
  { name: 'record-platform-event', entry: recordPlatformEventEntry },
  ...backgroundFunctions.map((background) => ({ name: background.id, entry: background.entry })),
];

/**
 * Bundle size and cold module load time of every deployed function against
 * the floor: each function's `require` in a fresh Node process with the
 * functions' NODE_OPTIONS, the floor and the functions in turn (round-robin,
 * so a noisy moment hits them all alike), medians.
 */
export async function benchBundles(outDir: string): Promise<void> {
  const floor = await bundle(FLOOR.name, FLOOR.entry, outDir);
  const functions: Bundle[] = [];
  for (const target of deployedFunctions()) functions.push(await bundle(target.name, target.entry, outDir));

  const samples = new Map<Bundle, number[]>([floor, ...functions].map((b) => [b, []]));
  for (let run = 0; run < LOAD_RUNS; run += 1) {
    for (const [b, times] of samples) times.push(await timeRequire(b.file));
  }
  const floorMs = median(samples.get(floor) as number[]);

  const { minify, sourceMap, target, mainFields, externalModules } = bundlingOptions;
  console.log(
    `\nBundles: esbuild with lib/aws/bundling.ts, as the stack bundles them (minify ${minify}, source map ${sourceMap}, target ${target}, ` +
      `cjs, main fields ${mainFields?.join(',') ?? 'default'}, ${externalModules?.length ?? 0} externals); KB = the .js file, map not counted`,
  );
  console.log(
    `Load: require() in ${LOAD_RUNS} fresh \`node -e\` processes per bundle with the functions' environment, ` +
      `round-robin with the floor, medians; load average ${os.loadavg()[0].toFixed(2)} now`,
  );
  console.log(`Floor: ${fixed(floor.kb, 1)} KB, require ${fixed(floorMs, 1)} ms (${floor.largest})`);
  const rows = functions.map((b) => {
    const loadMs = median(samples.get(b) as number[]);
    const overKb = b.kb - floor.kb;
    return { b, loadMs, overKb, loadRatio: loadMs / floorMs };
  });
  printTable(
    ['function', 'KB', 'KB over floor', `≤${SIZE_BUDGET_KB}`, 'require ms', '× floor', `≤${LOAD_BUDGET}×`, 'largest shares (KB)'],
    rows.map(({ b, loadMs, overKb, loadRatio }) => [
      b.name,
      fixed(b.kb, 1),
      fixed(overKb, 1),
      overKb <= SIZE_BUDGET_KB ? 'yes' : 'no',
      fixed(loadMs, 1),
      ratio(loadRatio),
      loadRatio <= LOAD_BUDGET ? 'yes' : 'no',
      b.largest,
    ]),
    ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
  );
  const ratios = rows.map((row) => row.loadRatio).sort((a, b) => a - b);
  const over = rows.map((row) => row.overKb).sort((a, b) => a - b);
  console.log(
    `Over the floor: ${fixed(over[0], 1)}–${fixed(over.at(-1) as number, 1)} KB; load ${ratio(ratios[0])}–${ratio(ratios.at(-1) as number)} ` +
      `(median ${ratio(median(ratios))}); within both budgets: ${rows.filter((row) => row.overKb <= SIZE_BUDGET_KB && row.loadRatio <= LOAD_BUDGET).length} of ${rows.length}`,
  );
}
