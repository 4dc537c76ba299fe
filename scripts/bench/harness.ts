/**
 * A small load harness: runs an async operation a fixed number of times at a
 * fixed concurrency after a warm-up, times every call with
 * process.hrtime.bigint(), and prints aligned tables.
 */

export type Operation = () => Promise<unknown>;

export interface LoadOptions {
  /** Timed calls, in total over all rounds. */
  calls: number;
  /** Untimed calls made first at the same concurrency: lazy loading, JIT, connection pools. */
  warmup: number;
  concurrency: number;
}

export const DEFAULT_CONCURRENCY = 16;

export interface Run {
  /** Per-call latencies in milliseconds. */
  latenciesMs: number[];
  /** Wall time of the whole run, in milliseconds. */
  elapsedMs: number;
}

export interface Stats {
  calls: number;
  p50: number;
  p99: number;
  mean: number;
  /** Calls per second of wall time. */
  throughput: number;
}

const nowNs = () => process.hrtime.bigint();
const msSince = (startNs: bigint) => Number(nowNs() - startNs) / 1e6;

/**
 * Makes `calls` calls with `concurrency` of them in flight at any moment.
 * The first failure stops the run: latencies of failing calls would measure
 * the error path, not the operation.
 */
export async function runCalls(operation: Operation, calls: number, concurrency: number): Promise<Run> {
  const latenciesMs: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < calls) {
      next += 1;
      const start = nowNs();
      await operation();
      latenciesMs.push(msSince(start));
    }
  };
  const start = nowNs();
  await Promise.all(Array.from({ length: Math.min(concurrency, calls) }, worker));
  return { latenciesMs, elapsedMs: msSince(start) };
}

/** Nearest-rank percentile of ascending values. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function summarise(runs: Run[]): Stats {
  const latencies = runs.flatMap((run) => run.latenciesMs).sort((a, b) => a - b);
  const elapsedMs = runs.reduce((sum, run) => sum + run.elapsedMs, 0);
  return {
    calls: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    mean: latencies.reduce((sum, value) => sum + value, 0) / latencies.length,
    throughput: (latencies.length / elapsedMs) * 1000,
  };
}

/**
 * Measures operations against one another (or one alone). Each is warmed up, then
 * the timed calls are split into rounds whose order alternates (A B, B A,
 * ...), so that drift on a noisy machine (another process waking up, the
 * JIT, a database growing its caches) falls on every side alike.
 */
export async function compare<K extends string>(
  operations: Record<K, Operation>,
  options: LoadOptions & { rounds: number },
): Promise<Record<K, Stats>> {
  const names = Object.keys(operations) as K[];
  for (const name of names) {
    if (options.warmup > 0) await runCalls(operations[name], options.warmup, options.concurrency);
  }
  const runs = Object.fromEntries(names.map((name) => [name, [] as Run[]])) as Record<K, Run[]>;
  for (let round = 0; round < options.rounds; round += 1) {
    const calls = Math.floor(options.calls / options.rounds) + (round < options.calls % options.rounds ? 1 : 0);
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) runs[name].push(await runCalls(operations[name], calls, options.concurrency));
  }
  return Object.fromEntries(names.map((name) => [name, summarise(runs[name])])) as Record<K, Stats>;
}

export const median = (values: number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

export type Align = 'left' | 'right';

/** Prints rows under a header, columns padded to their widest cell; numbers right-aligned by default. */
export function printTable(header: string[], rows: (string | number)[][], align?: Align[]): void {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const alignment = align ?? header.map((_, column) => (column === 0 ? 'left' : 'right'));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (alignment[column] === 'left' ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join('  ')
      .trimEnd();
  console.log(line(cells[0]));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of cells.slice(1)) console.log(line(row));
}

export const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
export const ratio = (value: number) => `${fixed(value, 2)}x`;
