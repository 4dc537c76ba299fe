import { randomBytes } from 'node:crypto';
import { createApiKey, MAX_KEY_LIMITS } from '../../shared/accounts/api-keys';
import { createOperator } from '../../shared/accounts/operators';
import { addDays } from '../../shared/core/calendar';
import { MAX_BATCH_ENTRIES } from '../../shared/usage/model';
import type { UsageSummaryRequest } from '../../shared/usage/schemas';
import { summarizeUsage } from '../../shared/usage/summary';
import { fixed, printTable, ratio, runCalls, summarise, type Stats } from './harness';
import { keepAliveClient } from './http';
import { METERS_PATH } from './scenario-usage';

/**
 * The usage figures that need data at scale, for an operator of its own:
 * summary latency over 31 days × 5 meters after 1,000 entries and again after
 * `entries` (loaded through the batch route), a 366-day summary over 10 meters
 * beside it, the items each summary reads, and entries/s recorded through the
 * batch route beside the single-entry route at the same concurrency.
 */
export interface UsageScalingOptions {
  url: string;
  /** Entries in total after loading (the figure: 100,000). */
  entries: number;
  concurrency: number;
  /** Timed summary calls per measurement (after a tenth as many warm-up calls). */
  summaryCalls: number;
  /** Entries recorded one per request through the single-entry route. */
  singleEntries: number;
}

const SMALL_LOAD = 1000;
const MONTH_METERS = Array.from({ length: 5 }, (_, i) => `meter-${i + 1}`);
const YEAR_METERS = Array.from({ length: 10 }, (_, i) => `meter-${i + 1}`);
const AMOUNTS = [0.25, 1, 1.5, 0.000001, 12.75, 3];

const unix = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

interface Entry {
  Meter: string;
  Usage: number;
  OccurredAt: number;
  Identifier?: string;
}

export async function benchUsageScaling(options: UsageScalingOptions): Promise<void> {
  const operatorId = `bench-usage-${randomBytes(3).toString('hex')}`;
  await createOperator({ OperatorID: operatorId, Name: 'Bench Metering', TimeZone: 'UTC' });
  const { secret } = await createApiKey(operatorId, ['usage:read', 'usage:write'], 'bench', MAX_KEY_LIMITS);
  const http = keepAliveClient(options.url, secret, options.concurrency);
  try {
    const today = new Date().toISOString().slice(0, 10);
    const month: UsageSummaryRequest = { from: addDays(today, -31), to: addDays(today, -1) };
    const year: UsageSummaryRequest = { from: addDays(today, -366), to: addDays(today, -1) };
    let serial = 0;
    /** An entry at a pseudo-random second of [from, to], of one of the meters, with a unique Identifier. */
    const entryIn = (from: string, toExclusive: string, meters: string[]): Entry => {
      const index = serial++;
      const span = unix(toExclusive) - unix(from);
      return {
        Meter: meters[index % meters.length],
        Usage: AMOUNTS[index % AMOUNTS.length],
        OccurredAt: unix(from) + ((index * 7_919_993) % span),
        Identifier: `bench-${index}`,
      };
    };
    const monthEntry = () => entryIn(month.from, today, MONTH_METERS);
    const olderEntry = () => entryIn(year.from, month.from, YEAR_METERS);
    /**
     * Ingest as a metering client sends it: recent events, flushed in order, so the 100 entries of one batch
     * request (and 100 successive single requests alike) fall in one hour of yesterday, on the 5 meters.
     */
    let recent = 0;
    const recentEntry = (): Entry => {
      const index = recent++;
      const hour = Math.floor(index / MAX_BATCH_ENTRIES) % 24;
      return {
        Meter: MONTH_METERS[index % MONTH_METERS.length],
        Usage: AMOUNTS[index % AMOUNTS.length],
        OccurredAt: unix(month.to) + hour * 3600 + (index % 3600),
        Identifier: `bench-recent-${index}`,
      };
    };

    /** Loads entries through the batch route, 100 per request, `concurrency` requests in flight. */
    const load = async (make: () => Entry, count: number): Promise<Stats> => {
      let left = count;
      const run = await runCalls(
        () => {
          const batch = Array.from({ length: Math.min(MAX_BATCH_ENTRIES, left) }, make);
          left -= batch.length;
          return http.post(`${METERS_PATH}/batch`, { Entries: batch });
        },
        Math.ceil(count / MAX_BATCH_ENTRIES),
        options.concurrency,
      );
      return summarise([run]);
    };

    const summaryQuery = (request: UsageSummaryRequest) => `${METERS_PATH}?from=${request.from}&to=${request.to}`;
    /** p50 of the summary through the local host, one call at a time, and what one such summary reads. */
    const measureSummary = async (label: string, request: UsageSummaryRequest) => {
      await runCalls(() => http.get(summaryQuery(request)), Math.ceil(options.summaryCalls / 10), 1);
      const stats = summarise([await runCalls(() => http.get(summaryQuery(request)), options.summaryCalls, 1)]);
      const { summary, readCost } = await summarizeUsage(operatorId, request);
      return { label, stats, readCost, meters: summary.Meters.length, events: summary.Totals.Events };
    };

    console.log(
      `\nUsage at scale: operator ${operatorId}, ${month.from}..${month.to} (31 days) and ${year.from}..${year.to} (366 days), UTC`,
    );
    await load(monthEntry, SMALL_LOAD);
    const small = await measureSummary(`31 days × 5 meters after ${SMALL_LOAD.toLocaleString('en')} entries`, month);

    // Ingest: the single-entry route and the batch route at the same concurrency, with idempotency keys and without.
    // Every entry lands in the 31 days and counts toward the total.
    let single = 0;
    const singleRoute = async (keyed: boolean) =>
      summarise([
        await runCalls(
          () => {
            const { Identifier, ...entry } = recentEntry();
            return http.post(METERS_PATH, entry, keyed ? { 'Idempotency-Key': `${Identifier}-single-${single++}` } : {});
          },
          options.singleEntries,
          options.concurrency,
        ),
      ]);
    const unkeyed = () => {
      const entry = recentEntry();
      delete entry.Identifier;
      return entry;
    };
    const ingest = [
      { route: 'POST /api/v2/usage/meters, Idempotency-Key', entries: options.singleEntries, stats: await singleRoute(true) },
      {
        route: 'POST /api/v2/usage/meters/batch, Identifiers',
        entries: options.singleEntries * 10,
        stats: await load(recentEntry, options.singleEntries * 10),
      },
      { route: 'POST /api/v2/usage/meters, no key', entries: options.singleEntries, stats: await singleRoute(false) },
      {
        route: 'POST /api/v2/usage/meters/batch, no Identifiers',
        entries: options.singleEntries * 10,
        stats: await load(unkeyed, options.singleEntries * 10),
      },
    ];
    const perSecond = ({ entries, stats }: (typeof ingest)[number]) => entries / (stats.calls / stats.throughput);

    // The rest of the load: half more in the 31 days, half over the 335 days before them on 10 meters.
    const loaded = SMALL_LOAD + ingest.reduce((sum, { entries }) => sum + entries, 0);
    const remaining = Math.max(0, options.entries - loaded);
    await load(monthEntry, Math.floor(remaining / 2));
    await load(olderEntry, remaining - Math.floor(remaining / 2));

    const large = await measureSummary(`31 days × 5 meters after ${options.entries.toLocaleString('en')} entries`, month);
    const annual = await measureSummary(`366 days × 10 meters after ${options.entries.toLocaleString('en')} entries`, year);

    console.log(
      `Summaries: ${options.summaryCalls} timed calls each after ${Math.ceil(options.summaryCalls / 10)} warm-up, one at a time, through the local host`,
    );
    printTable(
      ['summary', 'meters', 'events', 'p50 ms', 'p99 ms', 'items read', 'queries', 'read units'],
      [small, large, annual].map(({ label, stats, readCost, meters, events }) => [
        label,
        meters,
        events,
        fixed(stats.p50),
        fixed(stats.p99),
        readCost.itemsRead,
        readCost.queries,
        fixed(readCost.capacityUnits, 1),
      ]),
      ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
    );
    console.log(
      `p50 ratio, 31 days after ${options.entries.toLocaleString('en')} / after ${SMALL_LOAD.toLocaleString('en')} entries: ${ratio(large.stats.p50 / small.stats.p50)} (aim ≤ 1.2x)`,
    );
    console.log(
      `p50 ratio, 366 days × 10 meters / 31 days × 5 meters, both after ${options.entries.toLocaleString('en')}: ${ratio(annual.stats.p50 / large.stats.p50)} (aim ≤ 2x)`,
    );

    console.log(
      `\nIngest at concurrency ${options.concurrency} (requests in flight), the batch route with 100 entries per request; ` +
        'entries as a client flushes them, every 100 successive ones in one hour of yesterday, on 5 meters',
    );
    printTable(
      ['route', 'requests', 'entries', 'p50 ms/request', 'entries/s'],
      ingest.map((row) => [row.route, row.stats.calls, row.entries, fixed(row.stats.p50), fixed(perSecond(row), 0)]),
      ['left', 'right', 'right', 'right', 'right'],
    );
    console.log(
      `batch / single entries/s, with idempotency keys: ${ratio(perSecond(ingest[1]) / perSecond(ingest[0]))}; without: ${ratio(perSecond(ingest[3]) / perSecond(ingest[2]))} (aim ≥ 5x)`,
    );
  } finally {
    http.close();
  }
}
