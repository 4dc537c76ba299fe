import { spawn } from 'node:child_process';
import path from 'node:path';
import { PROJECT_ROOT } from '../../shared/api/routes';
import { fixed, percentile, printTable, ratio } from './harness';

const CALLS = 5000;
const ROUNDS = 5;
/** What the observability may add to a request's p50. */
const ADDED_P50_BUDGET_MS = 1;

/**
 * What the observability middlewares add to one request: a middy handler
 * with them against the same handler without, in a child process whose
 * stdout is a pipe that this process drains (the log lines and EMF documents
 * are really written); the bundle table shows what loading it costs.
 */
export async function benchObservability(): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'observability-worker.ts'), String(CALLS), String(ROUNDS)],
    {
      cwd: PROJECT_ROOT,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'INFO' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let logBytes = 0;
  child.stdout.on('data', (chunk: Buffer) => (logBytes += chunk.length));
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`The observability bench failed: ${errors}`);
  const samples = JSON.parse(errors.trim().split('\n').at(-1) as string) as { bare: number[]; observed: number[] };
  const stats = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  };
  const bare = stats(samples.bare);
  const observed = stats(samples.observed);
  console.log(
    `\nObservability: ${CALLS} sequential calls per side in ${ROUNDS} alternating rounds, in-process middy handlers; ` +
      `${fixed(logBytes / CALLS, 0)} bytes of log and EMF per observed call, drained from a pipe`,
  );
  printTable(
    ['handler', 'p50 ms', 'p99 ms', 'p50 vs bare', 'p50 added ms', `≤${ADDED_P50_BUDGET_MS} ms`],
    [
      ['bare middy', fixed(bare.p50, 4), fixed(bare.p99, 4), ratio(1), '', ''],
      [
        'with observed(requestLine)',
        fixed(observed.p50, 4),
        fixed(observed.p99, 4),
        ratio(observed.p50 / bare.p50),
        fixed(observed.p50 - bare.p50, 4),
        observed.p50 - bare.p50 <= ADDED_P50_BUDGET_MS ? 'yes' : 'no',
      ],
    ],
    ['left', 'right', 'right', 'right', 'right', 'left'],
  );
}
