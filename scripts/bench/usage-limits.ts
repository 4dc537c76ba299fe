import { unixSeconds } from '../../shared/core/clock';
import { RETRY, retrying } from '../../shared/core/retry';
import { transactionCancellation } from '../../shared/db/transaction-errors';
import { limitWrites, makeGate } from '../../shared/usage/gates';
import { makeCounters } from '../../shared/usage/limit-counters';
import { guardsOf } from '../../shared/usage/guards';
import { newUsageIds, randomShard } from '../../shared/usage/ids';
import { AGGREGATE_SHARDS } from '../../shared/usage/model';
import { writeTransaction } from '../../shared/usage/repository';
import { recordEntriesTransaction } from '../../shared/usage/usage-writes';
import { periodAt } from '../../shared/usage/limit-periods';
import { readLimitStatus } from '../../shared/usage/limit-status';
import { compare, fixed, printTable, ratio, type Stats } from './harness';
import { METERS_PATH } from './scenario-usage';
import { dimensionsOf, loadEntries, meteringOperator, readFigures, type Entry } from './usage-scaling';

/**
 * What usage limits cost. Recording: the single-entry route on a meter
 * without limits, beside a meter with 3 limits that alert only (a day, a
 * month, a month in another zone) and a meter with the same 3 limits, the
 * month's refusing (REFUSE), timed in alternating rounds at the bench's
 * concurrency and one at a time; beside each, its transaction alone (bare),
 * from the bench process. No limit is ever reached: what is measured is
 * what every entry counts in (its meter's guard written with its NONE
 * limits' counters, and a REFUSE limit's gate) and, with REFUSE, its
 * writers meeting on one gate. The watcher that decides the limits' alerts runs in the host
 * process, as on AWS it runs beside it, and shares its two cores.
 *
 * The status check: a month limit of an operator in New York (so its
 * period is cut from months, days and hours) and one filtered on a Plan,
 * after 1,000 entries of their meter in the current period and after
 * `entries`, with the items each reads. The limits are put once the entries
 * are loaded (and taken away while loading), so the load writes no counters.
 */
export interface UsageLimitsOptions {
  url: string;
  calls: number;
  warmup: number;
  concurrency: number;
  rounds: number;
  /** Entries of the limits' meter in the period when the status is timed the second time. */
  entries: number;
  statusCalls: number;
  /** Batch requests in flight while loading. */
  loadConcurrency: number;
}

const LIMITS_PATH = '/api/v2/usage/limits';
/** Never reached: every entry is accepted. */
const NEVER_REACHED = 1_000_000_000;
const THRESHOLDS = [50, 80, 100];
const SMALL_LOAD = 1000;
const STATUS_ZONE = 'America/New_York';
const STATUS_METER = 'api-calls';

type BenchHttp = Awaited<ReturnType<typeof meteringOperator>>['http'];

const limitBody = (meter: string, period: 'DAY' | 'MONTH', enforcement: 'NONE' | 'REFUSE', extra: object = {}) => ({
  Meter: meter,
  Period: period,
  Amount: NEVER_REACHED,
  Thresholds: THRESHOLDS,
  Enforcement: enforcement,
  ...extra,
});

/** The 3 limits of a meter: the month's refuses when asked to. */
const threeLimits = (meter: string, monthEnforcement: 'NONE' | 'REFUSE') => ({
  [`${meter}-day`]: limitBody(meter, 'DAY', 'NONE'),
  [`${meter}-month`]: limitBody(meter, 'MONTH', monthEnforcement),
  [`${meter}-month-tokyo`]: limitBody(meter, 'MONTH', 'NONE', { TimeZone: 'Asia/Tokyo' }),
});

/**
 * The transaction of one entry alone, from the bench process: its item and
 * aggregates, its meter's guard written (with its NONE limits' counters)
 * and its REFUSE limit's gate counted in, as the service builds it.
 * Counters or a gate not made yet are made, and a race lost to another
 * writer tried again, as the service does.
 */
const bareRecording = (operatorId: string, meter: string) => () => {
  let nextShard: number | undefined;
  return retrying(
    'Bench usage entry with limits',
    async () => {
      const now = new Date();
      const shard = nextShard ?? randomShard(AGGREGATE_SHARDS);
      nextShard = undefined;
      const [ID] = newUsageIds(now.getTime(), shard, AGGREGATE_SHARDS, 1);
      const entry = { ID, Meter: meter, Usage: 1.25, OccurredAt: unixSeconds(now) };
      const guards = await guardsOf(operatorId, [meter], shard);
      const limits = limitWrites(operatorId, [{ meter, occurredAt: entry.OccurredAt, usage: entry.Usage }], guards);
      const { input, limitPositions } = recordEntriesTransaction(operatorId, shard, [{ entry }], now, limits);
      try {
        return await writeTransaction(input);
      } catch (error) {
        const cancellation = transactionCancellation(error);
        if (!cancellation) throw error;
        const [guard] = limits.guards;
        const guardRefused = cancellation.conditionFailed(limitPositions.guards[0]);
        if (guardRefused) {
          await makeCounters(operatorId, shard, meter, guard.counters, now, guard.version);
          nextShard = shard;
        }
        const missing = limits.gates.filter((_, i) => cancellation.conditionFailed(limitPositions.gates[i]));
        for (const gate of missing) await makeGate(operatorId, gate, guard.version, now);
        if (guardRefused || missing.length || cancellation.retryable || cancellation.conditionFailed(0)) return RETRY;
        throw error;
      }
    },
    { attempts: 25, capMs: 1000 },
  );
};

const putLimits = async (http: BenchHttp, limits: Record<string, object>) => {
  for (const [limitId, body] of Object.entries(limits)) await http.put(`${LIMITS_PATH}/${limitId}`, body);
};

async function benchRecording(options: UsageLimitsOptions): Promise<void> {
  const { operatorId, http } = await meteringOperator(options.url, 'limits', options.concurrency);
  try {
    await putLimits(http, { ...threeLimits('calls-limited', 'NONE'), ...threeLimits('calls-refused', 'REFUSE') });
    const record = (meter: string) => () => http.post(METERS_PATH, { Meter: meter, Usage: 1.25 });
    const sides = {
      'no limits': record('calls-plain'),
      '3 limits, NONE': record('calls-limited'),
      '3 limits, one REFUSE': record('calls-refused'),
      'no limits, bare': bareRecording(operatorId, 'calls-plain'),
      '3 limits, NONE, bare': bareRecording(operatorId, 'calls-limited'),
      '3 limits, one REFUSE, bare': bareRecording(operatorId, 'calls-refused'),
    };
    console.log(
      `\nUsage limits: recording, POST ${METERS_PATH} (operator ${operatorId}): ${options.calls} timed calls per meter after ` +
        `${options.warmup} warm-up, ${options.rounds} alternating rounds; limits of Amount ${NEVER_REACHED}, never reached`,
    );
    const runs: { concurrency: number; stats: Record<keyof typeof sides, Stats> }[] = [];
    for (const concurrency of [options.concurrency, 1]) {
      const calls = concurrency === 1 ? Math.ceil(options.calls / 4) : options.calls;
      runs.push({
        concurrency,
        stats: await compare(sides, { calls, warmup: Math.ceil(options.warmup / 4), concurrency, rounds: options.rounds }),
      });
    }
    printTable(
      ['meter', 'in flight', 'calls', 'p50 ms', 'p99 ms', 'entries/s', 'p50 / no limits', 'entries/s / no limits'],
      runs.flatMap(({ concurrency, stats }) =>
        (Object.entries(stats) as [string, Stats][]).map(([side, one]) => [
          side,
          concurrency,
          one.calls,
          fixed(one.p50),
          fixed(one.p99),
          fixed(one.throughput, 0),
          ratio(one.p50 / stats[side.endsWith(', bare') ? 'no limits, bare' : 'no limits'].p50),
          ratio(one.throughput / stats[side.endsWith(', bare') ? 'no limits, bare' : 'no limits'].throughput),
        ]),
      ),
      ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
    );
    const [{ stats }] = runs;
    const limited = stats['3 limits, NONE'].p50 / stats['no limits'].p50;
    const refused = stats['3 limits, one REFUSE'].p50 / stats['no limits'].p50;
    console.log(
      `p50 ratio at ${options.concurrency} in flight, 3 limits / no limits: ${ratio(limited)} (aim ≤ 1.3x: ${limited <= 1.3 ? 'met' : 'missed'}); ` +
        `3 limits, one REFUSE / no limits: ${ratio(refused)}; the transactions alone (bare): ` +
        `${ratio(stats['3 limits, NONE, bare'].p50 / stats['no limits, bare'].p50)} and ` +
        `${ratio(stats['3 limits, one REFUSE, bare'].p50 / stats['no limits, bare'].p50)}`,
    );
  } finally {
    http.close();
  }
}

async function benchStatus(options: UsageLimitsOptions): Promise<void> {
  const { operatorId, http } = await meteringOperator(options.url, 'limits-status', options.loadConcurrency, STATUS_ZONE);
  try {
    const now = unixSeconds(new Date());
    const period = periodAt('MONTH', STATUS_ZONE, now);
    // Up to a minute ago: an entry may not lie in the future, and the period may have begun moments ago.
    const span = Math.max(1, now - 60 - period.start);
    /** `count` entries spread over the period so far: scattered (by a large prime's stride), or in time order as a client sends them. */
    const entriesOver = (count: number, scattered: boolean) => {
      let made = 0;
      return (): Entry => {
        const index = made++;
        const offset = scattered ? (index * 7_919_993) % span : Math.floor((index * span) / count);
        return { Meter: STATUS_METER, Usage: 1.25, OccurredAt: period.start + offset, Dimensions: dimensionsOf(index) };
      };
    };
    const limits = {
      month: limitBody(STATUS_METER, 'MONTH', 'NONE'),
      'month-pro': limitBody(STATUS_METER, 'MONTH', 'NONE', { Filter: { Plan: 'pro' } }),
    };
    const statusPath = (limitId: string) => `${LIMITS_PATH}/${limitId}/status`;
    const measure = async (label: string) => {
      await putLimits(http, limits);
      const timed = await compare(
        Object.fromEntries(Object.keys(limits).map((limitId) => [limitId, () => http.get(statusPath(limitId))])),
        { calls: options.statusCalls, warmup: Math.ceil(options.statusCalls / 10), concurrency: 1, rounds: 4 },
      );
      const rows = [];
      for (const limitId of Object.keys(limits)) {
        const { status, readCost } = await readLimitStatus(operatorId, limitId);
        rows.push({ label: `${limitId} after ${label}`, limitId, status, readCost, stats: timed[limitId] });
      }
      for (const limitId of Object.keys(limits)) await http.delete(`${LIMITS_PATH}/${limitId}`);
      return rows;
    };

    // 10 per request: a transaction's entries go to one shard, and the first thousand should reach all 8, as the rest do.
    await loadEntries(http, entriesOver(SMALL_LOAD, true), SMALL_LOAD, options.loadConcurrency, 10);
    const small = await measure(`${SMALL_LOAD.toLocaleString('en')} entries`);
    const rest = Math.max(0, options.entries - SMALL_LOAD);
    const load = await loadEntries(http, entriesOver(rest, false), rest, options.loadConcurrency);
    const large = await measure(`${options.entries.toLocaleString('en')} entries`);

    console.log(
      `\nUsage limits: the status check, GET ${LIMITS_PATH}/{LimitID}/status (operator ${operatorId} in ${STATUS_ZONE}, ` +
        `the month from ${period.from}): ${options.statusCalls} timed calls each, one at a time, 4 alternating rounds; ` +
        `${rest.toLocaleString('en')} entries loaded between at ${fixed(rest / (load.calls / load.throughput), 0)} entries/s. ` +
        'Items read, queries and read units are of one such status in this process',
    );
    printTable(
      ['limit', 'Used', 'p50 ms', 'p99 ms', 'items read', 'queries', 'read units', 'registry items'],
      [...small, ...large].map((row) => [row.label, row.status.Used, ...readFigures(row.stats, row.readCost)]),
      ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
    );
    small.forEach((before, i) => {
      const after = large[i];
      const p50 = after.stats.p50 / before.stats.p50;
      const items = after.readCost.itemsRead / before.readCost.itemsRead;
      console.log(
        `${before.limitId}: p50 ratio after ${options.entries.toLocaleString('en')} / after ${SMALL_LOAD.toLocaleString('en')} entries ` +
          `${ratio(p50)}, items read ${ratio(items)} (aim ≤ 1.2x: ${p50 <= 1.2 && items <= 1.2 ? 'met' : 'missed'})`,
      );
    });
  } finally {
    http.close();
  }
}

export async function benchUsageLimits(options: UsageLimitsOptions): Promise<void> {
  await benchRecording(options);
  await benchStatus(options);
}
