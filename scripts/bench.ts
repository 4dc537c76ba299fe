import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { localClient, startDynamoDbLocal, type DynamoDbLocal } from '../lib/local/dynamodb-local';
import { LOCAL_CREDENTIALS } from '../lib/local/defaults';
import { ensureTable } from '../lib/local/table';
import { configure } from '../shared/core/config';
import { PROJECT_ROOT } from '../shared/api/routes';
import { benchBundles } from './bench/bundles';
import { benchFaces } from './bench/faces';
import { benchObservability } from './bench/observability';
import { DEFAULT_CONCURRENCY, compare, fixed, printTable, ratio, type Stats } from './bench/harness';
import { keepAliveClient } from './bench/http';
import type { BenchContext } from './bench/scenario';
import { scenarios } from './bench/scenarios';
import { seedBenchOperator } from './bench/seed';
import { benchTimeslotCancellation } from './bench/timeslot-cancellation';
import { benchUsageScaling } from './bench/usage-scaling';

/**
 * `npm run bench`: latency of catalogue reads, bookings and usage recording
 * and summaries through the local host, each against the bare DynamoDB calls
 * it makes (or, for the writes, its transaction alone); the OCTo routes
 * against their marketplace counterparts (scripts/bench/faces.ts); then size
 * and cold load time of every function bundle. Every figure is measured in this run
 * and read against a baseline measured beside it.
 *
 * Then usage at scale (scripts/bench/usage-scaling.ts): summaries after
 * 1,000 and after 100,000 entries with dimensions, without groupBy and
 * grouped or filtered by them, a year's summary beside a month's, and the
 * batch route's entries/s (with dimensions and without) beside the
 * single-entry route's.
 *
 * Then a timeslot of 10,000 places holding 2,000 bookings cancelled
 * (scripts/bench/timeslot-cancellation.ts): through HTTP, and stopped
 * half-way then finished by the sweep.
 *
 * Flags: --quick (fewer calls, to try changes), --calls N, --warmup N, --concurrency N,
 * --only TEXT[,TEXT] (only the scenarios whose names contain one of them, e.g. `--only hold,confirm`; `--only octo`
 * for OCTo beside the marketplace alone, `--only "octo confirm"` for one pair;
 * the bundles are then left out; `--only usage` also runs usage at scale); --observability (only what the
 * observability middlewares add, per request, and the bundle table); --bundles (only the bundle table); --usage-entries N (entries in the 31 days; default 100000),
 * --summary-calls N (default 200), --single-entries N (default 2000), --usage-concurrency N (default 4:
 * requests in flight while loading and in the batch-vs-single comparison); --cancel-bookings N (default 2000; `--only cancel` alone).
 */

const TABLE_NAME = 'ota-usage-bench';
const P50_GOAL = 1.5;

interface Options {
  /** Only the observability figures and the bundle table. */
  observabilityOnly: boolean;
  /** Only the bundle table. */
  bundlesOnly: boolean;
  calls: number;
  warmup: number;
  concurrency: number;
  rounds: number;
  only?: string[];
  'usage-entries': number;
  'summary-calls': number;
  'single-entries': number;
  'usage-concurrency': number;
  'cancel-bookings': number;
}

const NUMBER_OPTIONS = [
  'calls',
  'warmup',
  'concurrency',
  'usage-entries',
  'summary-calls',
  'single-entries',
  'usage-concurrency',
  'cancel-bookings',
] as const;

function parseOptions(args: string[]): Options {
  const options: Options = {
    observabilityOnly: args.includes('--observability'),
    bundlesOnly: args.includes('--bundles'),
    calls: 2000,
    warmup: 200,
    concurrency: DEFAULT_CONCURRENCY,
    rounds: 4,
    'usage-entries': 100_000,
    'summary-calls': 200,
    'single-entries': 2000,
    // 4 batches of 100 in flight are 400 entries at once: more than DynamoDB Local on a small machine finishes within the function timeout.
    'usage-concurrency': 4,
    'cancel-bookings': 2000,
  };
  if (args.includes('--quick')) {
    Object.assign(options, {
      calls: 300,
      warmup: 50,
      rounds: 2,
      'usage-entries': 5000,
      'summary-calls': 50,
      'single-entries': 200,
      'cancel-bookings': 500,
    });
  }
  for (const name of NUMBER_OPTIONS) {
    const at = args.indexOf(`--${name}`);
    if (at < 0) continue;
    const value = Number(args[at + 1]);
    if (!Number.isInteger(value) || value < (name === 'warmup' ? 0 : 1)) throw new Error(`--${name} needs a whole number`);
    options[name] = value;
  }
  const only = args.indexOf('--only');
  if (only >= 0) {
    const names = (args[only + 1] ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean);
    if (!names.length) throw new Error('--only needs scenario names, e.g. --only hold,confirm');
    options.only = names;
  }
  const known = new Set(['--quick', '--observability', '--bundles', '--only', ...NUMBER_OPTIONS.map((name) => `--${name}`)]);
  const unknown = args.filter((arg, i) => arg.startsWith('--') && !known.has(arg) && !known.has(args[i - 1]));
  if (unknown.length) throw new Error(`Unknown option(s): ${unknown.join(' ')}`);
  return options;
}

interface HostProcess {
  url: string;
  stop(): Promise<void>;
}

/** The local host in a child process (scripts/bench/host.ts), configured by its environment as a Lambda function is. */
async function startHostProcess(dynamoEndpoint: string): Promise<HostProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'bench', 'host.ts')], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      TABLE_NAME,
      DYNAMODB_ENDPOINT: dynamoEndpoint,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`The host process exited with code ${code} before it listened`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line).url as string));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        process.off('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.stdin!.end();
      }),
  };
}

interface ScenarioResult {
  name: string;
  bareNote?: string;
  /** What one service call answered, so the table shows the work is real. */
  answer: string;
  service: Stats;
  bare: Stats;
}

function describeAnswer(answer: unknown): string {
  if (typeof answer !== 'string') return '';
  const size = `${fixed(Buffer.byteLength(answer) / 1024, 1)} KB`;
  try {
    const { data } = JSON.parse(answer) as { data?: unknown };
    if (Array.isArray(data)) return `${data.length} items, ${size}`;
    const meters = (data as { Meters?: unknown } | undefined)?.Meters;
    return Array.isArray(meters) ? `${meters.length} meters, ${size}` : size;
  } catch {
    return size;
  }
}

function printLatency(results: ScenarioResult[], options: Options): void {
  console.log(
    `\nLatency: ${options.calls} timed calls per side after ${options.warmup} warm-up, concurrency ${options.concurrency}, ` +
      `${options.rounds} rounds alternating service and bare`,
  );
  console.log('service = HTTP through the local host (separate process); bare = the same DynamoDB calls from the bench process');
  printTable(
    ['scenario', 'side', 'p50 ms', 'p99 ms', 'mean ms', 'ops/s', 'answer'],
    results.flatMap(({ name, answer, service, bare }) =>
      (
        [
          ['service', service],
          ['bare', bare],
        ] as const
      ).map(([side, stats], i) => [
        i === 0 ? name : '',
        side,
        fixed(stats.p50),
        fixed(stats.p99),
        fixed(stats.mean),
        fixed(stats.throughput, 0),
        i === 0 ? answer : '',
      ]),
    ),
    ['left', 'left', 'right', 'right', 'right', 'right', 'left'],
  );
  console.log('\nRatios: latency service/bare, throughput bare/service (1.00x = the service adds nothing)');
  printTable(
    ['scenario', 'p50', 'p99', 'mean', 'throughput', 'p50 added ms', `p50 ≤${P50_GOAL}x`],
    results.map(({ name, service, bare }) => {
      const p50 = service.p50 / bare.p50;
      return [
        name,
        ratio(p50),
        ratio(service.p99 / bare.p99),
        ratio(service.mean / bare.mean),
        ratio(bare.throughput / service.throughput),
        fixed(service.p50 - bare.p50),
        p50 <= P50_GOAL ? 'yes' : 'no',
      ];
    }),
  );
  const notes = results.filter((result) => result.bareNote);
  if (notes.length) console.log(`\nWhere bare is less than the service's DynamoDB calls:`);
  for (const { name, bareNote } of notes) console.log(`  ${name}: ${bareNote}`);
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const tempDir = mkdtempSync(path.join(os.tmpdir(), 'ota-bench-'));
  // Exiting runs the 'exit' hooks that stop DynamoDB Local and the host; a signal's default death would skip them.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(1));
  process.once('exit', () => rmSync(tempDir, { recursive: true, force: true }));
  let dynamoLocal: DynamoDbLocal | undefined;
  let host: HostProcess | undefined;
  let http: ReturnType<typeof keepAliveClient> | undefined;
  try {
    const load = os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs, load average ${load}, ${new Date().toISOString()}`);
    if (options.observabilityOnly || options.bundlesOnly) {
      if (options.observabilityOnly) await benchObservability();
      await benchBundles(tempDir);
      return;
    }

    dynamoLocal = await startDynamoDbLocal();
    configure({ tableName: TABLE_NAME, dynamoEndpoint: dynamoLocal.endpoint, localCredentials: LOCAL_CREDENTIALS });
    const admin = localClient(dynamoLocal.endpoint);
    await ensureTable(admin, TABLE_NAME);
    admin.destroy();

    const seeded = await seedBenchOperator();
    console.log(
      `DynamoDB Local (in memory) at ${dynamoLocal.endpoint}; operator ${seeded.operatorId}: ` +
        `${seeded.products} products, ${seeded.timeslots} timeslots, benched activity ${seeded.activityId} from ${seeded.firstDate}, ` +
        `${seeded.usageEntries} usage entries`,
    );
    host = await startHostProcess(dynamoLocal.endpoint);
    console.log(`Local host (child process, default authorizer cache) at ${host.url}`);

    http = keepAliveClient(host.url, seeded.apiKey, options.concurrency);
    const context: BenchContext = {
      operatorId: seeded.operatorId,
      keyId: seeded.keyId,
      timeZone: seeded.timeZone,
      activityId: seeded.activityId,
      firstDate: seeded.firstDate,
      get: http.get,
      post: http.post,
      postAction: http.postAction,
    };
    const selected = scenarios(options.warmup + options.calls + 1).filter(
      (scenario) => !options.only || options.only.some((name) => scenario.name.toLowerCase().includes(name)),
    );
    const faces = !options.only || options.only.some((name) => name.startsWith('octo'));
    const cancellation = !options.only || options.only.includes('cancel');
    if (!selected.length && !faces && !cancellation) throw new Error(`No scenario matches --only ${options.only?.join(',')}`);
    if (selected.length) console.log(`Measuring ${selected.map((scenario) => scenario.name).join(', ')} ...`);
    const results: ScenarioResult[] = [];
    for (const scenario of selected) {
      await scenario.prepare?.(context);
      // One untimed call each first: a failing scenario stops the bench before any figure is printed.
      const answer = describeAnswer(await scenario.service(context));
      await scenario.bare(context);
      const stats = await compare({ service: () => scenario.service(context), bare: () => scenario.bare(context) }, options);
      results.push({ name: scenario.name, bareNote: scenario.bareNote, answer, ...stats });
    }
    if (results.length) printLatency(results, options);
    if (faces) await benchFaces(context, options, options.only);
    http.close();

    if (!options.only || options.only.includes('usage')) {
      await benchUsageScaling({
        url: host.url,
        entries: options['usage-entries'],
        concurrency: options['usage-concurrency'],
        summaryCalls: options['summary-calls'],
        singleEntries: options['single-entries'],
      });
    }

    if (cancellation) {
      await benchTimeslotCancellation({ url: host.url, bookings: options['cancel-bookings'] });
    }

    // The bundles need neither: stopping them first keeps the load-time figures free of their noise.
    await host.stop();
    await dynamoLocal.stop();
    if (!options.only) {
      await benchObservability();
      await benchBundles(tempDir);
    }
  } finally {
    http?.close();
    await host?.stop();
    await dynamoLocal?.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  },
);
