import { randomBytes } from 'node:crypto';
import { createApiKey, MAX_KEY_LIMITS } from '../../shared/accounts/api-keys';
import { createOperator } from '../../shared/accounts/operators';
import { addDays } from '../../shared/core/calendar';
import { AGGREGATE_SHARDS, MAX_BATCH_ENTRIES, MAX_DIMENSION_COMBINATIONS } from '../../shared/usage/model';
import { putAggregates, queryAggregates, type ReadCost } from '../../shared/usage/repository';
import type { Dimensions, UsageSummaryRequest } from '../../shared/usage/schemas';
import { summarizeUsage, summaryPlan } from '../../shared/usage/summary';
import { compare, fixed, printTable, ratio, runCalls, summarise, type Stats } from './harness';
import { keepAliveClient } from './http';
import { aggregateSizes } from './item-size';
import { METERS_PATH } from './scenario-usage';

/**
 * The usage figures that need data at scale. An operator of its own records,
 * through the batch route, 100,000 entries over the last 31 days on 5 meters,
 * each with a Region (5 values) and a Plan (10 values), and 27,500 more over
 * the 335 days before on 10 meters. The 31-day summary is timed after 1,000
 * entries and after 100,000: without groupBy, grouped by Region, by Region
 * and Plan, and filtered on a Plan grouped by Region, beside the same summary
 * read from a copy of its aggregates without their totals per combination
 * (the items as they were before dimensions), and a 366-day summary over the
 * 10 meters. Entries/s through the batch route with dimensions (40,000 of the
 * 100,000) are measured beside the batch route without them and the
 * single-entry route, on an operator of their own.
 */
export interface UsageScalingOptions {
  url: string;
  /** Entries in the 31 days after loading (the figure: 100,000). */
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
const REGIONS = ['eu-west', 'eu-central', 'us-east', 'us-west', 'ap-south'];
const PLANS = ['free', 'starter', 'pro', 'team', 'business', 'enterprise', 'education', 'nonprofit', 'trial', 'partner'];
/** Entries before the 31 days, for the year's summary: as many as earlier runs of this bench loaded there. */
const OLDER_ENTRIES = 27_500;

const unix = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

export interface Entry {
  Meter: string;
  Usage: number;
  OccurredAt: number;
  Dimensions?: Dimensions;
  Identifier?: string;
}

/** A Region and a Plan drawn from the entry's index, so every one of the 50 combinations is frequent on every meter. */
export const dimensionsOf = (index: number): Dimensions => ({
  Region: REGIONS[(index * 7 + (index >> 3)) % REGIONS.length],
  Plan: PLANS[(index * 3 + (index >> 5)) % PLANS.length],
});

type BenchHttp = ReturnType<typeof keepAliveClient>;

/** A timed read's cells in a table: p50, p99, items read, queries, read units and registry items. */
export const readFigures = (stats: Stats, cost: ReadCost) => [
  fixed(stats.p50),
  fixed(stats.p99),
  cost.itemsRead,
  cost.queries,
  fixed(cost.capacityUnits, 1),
  cost.combinationsRead,
];

/** Loads entries through the batch route, `perRequest` per request (100 unless told), `concurrency` requests in flight. */
export async function loadEntries(
  http: BenchHttp,
  make: () => Entry,
  count: number,
  concurrency: number,
  perRequest = MAX_BATCH_ENTRIES,
): Promise<Stats> {
  let left = count;
  const run = await runCalls(
    () => {
      const batch = Array.from({ length: Math.min(perRequest, left) }, make);
      left -= batch.length;
      return http.post(`${METERS_PATH}/batch`, { Entries: batch });
    },
    Math.ceil(count / perRequest),
    concurrency,
  );
  return summarise([run]);
}

/** An operator of the bench's own, in `timeZone`, with a usage key at the highest rate limit and a client of it. */
export async function meteringOperator(url: string, stem: string, concurrency: number, timeZone = 'UTC') {
  const operatorId = `bench-${stem}-${randomBytes(3).toString('hex')}`;
  await createOperator({ OperatorID: operatorId, Name: 'Bench Metering', TimeZone: timeZone });
  // At the highest rate limit: the single-entry route's ingest goes beyond a default key's 50 requests/s.
  const { secret } = await createApiKey(operatorId, ['usage:read', 'usage:write'], 'bench', MAX_KEY_LIMITS);
  return { operatorId, http: keepAliveClient(url, secret, concurrency) };
}

export async function benchUsageScaling(options: UsageScalingOptions): Promise<void> {
  const operator = (stem: string) => meteringOperator(options.url, stem, options.concurrency);
  const scale = await operator('usage');
  const clients = [scale.http];
  try {
    const today = new Date().toISOString().slice(0, 10);
    const month: UsageSummaryRequest = { from: addDays(today, -31), to: addDays(today, -1) };
    const year: UsageSummaryRequest = { from: addDays(today, -366), to: addDays(today, -1) };
    let serial = 0;
    /** An entry at a pseudo-random second of [from, to), of one of the meters, with a unique Identifier and, in the 31 days, dimensions. */
    const entryIn = (from: string, toExclusive: string, meters: string[], dimensioned: boolean): Entry => {
      const index = serial++;
      const span = unix(toExclusive) - unix(from);
      return {
        Meter: meters[index % meters.length],
        Usage: AMOUNTS[index % AMOUNTS.length],
        OccurredAt: unix(from) + ((index * 7_919_993) % span),
        ...(dimensioned ? { Dimensions: dimensionsOf(index) } : {}),
        Identifier: `bench-${index}`,
      };
    };
    const monthEntry = () => entryIn(month.from, today, MONTH_METERS, true);
    const olderEntry = () => entryIn(year.from, month.from, YEAR_METERS, false);

    const load = (http: BenchHttp, make: () => Entry, count: number) => loadEntries(http, make, count, options.concurrency);

    const summaryPath = (request: UsageSummaryRequest, extra = '') => `${METERS_PATH}?from=${request.from}&to=${request.to}${extra}`;
    const warmup = Math.ceil(options.summaryCalls / 10);
    /** What one such summary reads, run once in this process (which has not seen the combinations yet) with the same code. */
    const readOnce = async (operatorId: string, request: UsageSummaryRequest) => {
      const { summary, readCost } = await summarizeUsage(operatorId, request);
      return { readCost, items: summary.Meters.length, events: summary.Totals.Events };
    };

    console.log(
      `\nUsage at scale: operator ${scale.operatorId}, ${month.from}..${month.to} (31 days) and ${year.from}..${year.to} (366 days), UTC; ` +
        `entries in the 31 days carry a Region (${REGIONS.length} values) and a Plan (${PLANS.length} values)`,
    );
    await load(scale.http, monthEntry, SMALL_LOAD);
    const smallStats = summarise([
      await runCalls(() => scale.http.get(summaryPath(month)), warmup, 1),
      await runCalls(() => scale.http.get(summaryPath(month)), options.summaryCalls, 1),
    ]);
    const small = {
      label: `31 days × 5 meters after ${SMALL_LOAD.toLocaleString('en')} entries`,
      stats: smallStats,
      ...(await readOnce(scale.operatorId, month)),
    };

    // Ingest, as a client flushes its buffer (every 100 successive entries in one hour of yesterday, on the 5 meters): the
    // single-entry route and the batch route at the same concurrency, with idempotency keys and without, on an operator of
    // their own, and the batch route with dimensions on this one, whose 100,000 entries in the 31 days they are part of.
    const ingestOperator = await operator('usage-ingest');
    clients.push(ingestOperator.http);
    const plainIngest = ingestOperator.http;
    const dimensionedIngest = scale.http;
    let recent = 0;
    const recentEntry = (withIdentifier: boolean, dimensioned: boolean) => (): Entry => {
      const index = recent++;
      const hour = Math.floor(index / MAX_BATCH_ENTRIES) % 24;
      return {
        Meter: MONTH_METERS[index % MONTH_METERS.length],
        Usage: AMOUNTS[index % AMOUNTS.length],
        OccurredAt: unix(month.to) + hour * 3600 + (index % 3600),
        ...(dimensioned ? { Dimensions: dimensionsOf(index) } : {}),
        ...(withIdentifier ? { Identifier: `bench-recent-${index}` } : {}),
      };
    };
    const singleRoute = async (withIdentifier: boolean) =>
      summarise([
        await runCalls(
          () => {
            const { Identifier, ...entry } = recentEntry(true, false)();
            return plainIngest.post(METERS_PATH, entry, withIdentifier ? { 'Idempotency-Key': `${Identifier}-single` } : {});
          },
          options.singleEntries,
          options.concurrency,
        ),
      ]);
    const batched = options.singleEntries * 10;
    const ingest = [
      { route: 'POST /api/v2/usage/meters, Idempotency-Key', entries: options.singleEntries, stats: await singleRoute(true) },
      {
        route: 'POST /api/v2/usage/meters/batch, Identifiers',
        entries: batched,
        stats: await load(plainIngest, recentEntry(true, false), batched),
      },
      {
        route: 'POST /api/v2/usage/meters/batch, Identifiers, Dimensions',
        entries: batched,
        stats: await load(dimensionedIngest, recentEntry(true, true), batched),
      },
      { route: 'POST /api/v2/usage/meters, no key', entries: options.singleEntries, stats: await singleRoute(false) },
      {
        route: 'POST /api/v2/usage/meters/batch, no Identifiers',
        entries: batched,
        stats: await load(plainIngest, recentEntry(false, false), batched),
      },
      {
        route: 'POST /api/v2/usage/meters/batch, no Identifiers, Dimensions',
        entries: batched,
        stats: await load(dimensionedIngest, recentEntry(false, true), batched),
      },
    ];
    const perSecond = ({ entries, stats }: (typeof ingest)[number]) => entries / (stats.calls / stats.throughput);

    const rest = options.entries - SMALL_LOAD - 2 * batched;
    const monthStats = await load(scale.http, monthEntry, rest);
    await load(scale.http, olderEntry, OLDER_ENTRIES);
    console.log(
      `Loaded ${options.entries.toLocaleString('en')} entries in the 31 days (${(2 * batched).toLocaleString('en')} of them in the ingest comparison, ` +
        `${rest.toLocaleString('en')} at ${fixed(rest / (monthStats.calls / monthStats.throughput), 0)} entries/s with each batch scattered over the month) ` +
        `and ${OLDER_ENTRIES.toLocaleString('en')} over the 335 days before, on 10 meters`,
    );

    // The same aggregates as they were before dimensions existed: the summary's items, copied without their totals per combination.
    const before = await operator('usage-before');
    clients.push(before.http);
    const scratch: ReadCost = { queries: 0, itemsRead: 0, capacityUnits: 0, combinationsRead: 0 };
    for (const run of summaryPlan(month).reading.runs) {
      for (let shard = 0; shard < AGGREGATE_SHARDS; shard += 1) {
        const range = { firstBucket: run.first, lastBucket: run.last, combinations: false };
        await putAggregates(before.operatorId, shard, await queryAggregates(scale.operatorId, shard, run.level, range, scratch));
      }
    }

    const forms = [
      { label: 'without groupBy or filter', client: scale.http, extra: '', request: month },
      { label: 'groupBy=Region', client: scale.http, extra: '&groupBy=Region', request: { ...month, groupBy: 'Region' } },
      {
        label: 'groupBy=Region,Plan',
        client: scale.http,
        extra: '&groupBy=Region,Plan',
        request: { ...month, groupBy: 'Region,Plan' },
      },
      {
        label: 'filter[Plan]=pro&groupBy=Region',
        client: scale.http,
        extra: '&filter%5BPlan%5D=pro&groupBy=Region',
        request: { ...month, groupBy: 'Region', filter: { Plan: 'pro' } },
      },
      { label: 'the same aggregates without dimensions', client: before.http, extra: '', request: month },
    ];
    const timed = await compare(
      Object.fromEntries(forms.map(({ label, client, extra }) => [label, () => client.get(summaryPath(month, extra))])),
      { calls: options.summaryCalls, warmup, concurrency: 1, rounds: 4 },
    );
    const after = await Promise.all(
      forms.map(async ({ label, request }, i) => ({
        label: `  ${label}`,
        stats: timed[label],
        ...(await readOnce(i === forms.length - 1 ? before.operatorId : scale.operatorId, request)),
      })),
    );
    const annualStats = summarise([
      await runCalls(() => scale.http.get(summaryPath(year)), warmup, 1),
      await runCalls(() => scale.http.get(summaryPath(year)), options.summaryCalls, 1),
    ]);
    const annual = {
      label: `366 days × 10 meters after ${(options.entries + OLDER_ENTRIES).toLocaleString('en')} entries`,
      stats: annualStats,
      ...(await readOnce(scale.operatorId, year)),
    };

    console.log(
      `Summaries: ${options.summaryCalls} timed calls each after ${warmup} warm-up, one at a time, through the local host; ` +
        `the forms after ${options.entries.toLocaleString('en')} entries in 4 alternating rounds. ` +
        'Items read, queries, read units and registry items are of one such summary in a process that has not seen the combinations',
    );
    printTable(
      ['summary', 'items', 'events', 'p50 ms', 'p99 ms', 'items read', 'queries', 'read units', 'registry items'],
      [small, { label: `31 days × 5 meters after ${options.entries.toLocaleString('en')} entries:` }, ...after, annual].map((row) =>
        'stats' in row ? [row.label, row.items, row.events, ...readFigures(row.stats, row.readCost)] : [row.label],
      ),
      ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
    );
    const [plain, ...grouped] = after.slice(0, 4);
    const old = after[4];
    for (const form of grouped) {
      const p50 = form.stats.p50 / plain.stats.p50;
      console.log(`p50 ratio, ${form.label.trim()} / without groupBy: ${ratio(p50)} (aim ≤ 2x: ${p50 <= 2 ? 'met' : 'missed'})`);
    }
    const same = plain.readCost.itemsRead === old.readCost.itemsRead && plain.readCost.queries === old.readCost.queries;
    console.log(
      `Items read without groupBy: ${plain.readCost.itemsRead} in ${plain.readCost.queries} queries; the same aggregates without dimensions: ` +
        `${old.readCost.itemsRead} in ${old.readCost.queries} (aim: unchanged: ${same ? 'met' : 'missed'}); ` +
        `read units ${ratio(plain.readCost.capacityUnits / old.readCost.capacityUnits)} and p50 ${ratio(plain.stats.p50 / old.stats.p50)} of theirs`,
    );
    console.log(
      `p50 ratio, 31 days after ${options.entries.toLocaleString('en')} / after ${SMALL_LOAD.toLocaleString('en')} entries: ${ratio(plain.stats.p50 / small.stats.p50)} (aim ≤ 1.2x)`,
    );
    console.log(`p50 ratio, 366 days × 10 meters / 31 days × 5 meters: ${ratio(annual.stats.p50 / plain.stats.p50)} (aim ≤ 2x)`);

    const sizes = await aggregateSizes(scale.operatorId, summaryPlan(month).reading.runs);
    console.log(`\nAggregate items the 31-day summary reads (DynamoDB's item size: attribute names and values)`);
    printTable(
      ['level', 'items', 'combinations, mean', 'combinations, most', 'bytes, mean', 'bytes, most', 'write units, most (in a transaction)'],
      sizes.map((level) => [
        level.level,
        level.items,
        fixed(level.meanCombinations, 1),
        level.maxCombinations,
        fixed(level.meanBytes, 0),
        level.maxBytes,
        `${Math.ceil(level.maxBytes / 1024)} (${2 * Math.ceil(level.maxBytes / 1024)})`,
      ]),
      ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
    );
    const perCombination = sizes.find((level) => level.level === 'month')!.bytesPerCombination;
    const atLimit = sizes.find((level) => level.level === 'month')!.baseBytes + MAX_DIMENSION_COMBINATIONS * perCombination;
    console.log(
      `Each combination adds about ${fixed(perCombination, 1)} bytes to an aggregate; a month aggregate holding the limit of ` +
        `${MAX_DIMENSION_COMBINATIONS} combinations would be about ${fixed(atLimit, 0)} bytes: ${Math.ceil(atLimit / 1024)} write units ` +
        `(${2 * Math.ceil(atLimit / 1024)} in a transaction) per update, and read units to match`,
    );

    console.log(
      `\nIngest at concurrency ${options.concurrency} (requests in flight), the batch route with 100 entries per request; ` +
        `entries as a client flushes them, every 100 successive ones in one hour of yesterday, on 5 meters (with dimensions: the ${REGIONS.length * PLANS.length} combinations)`,
    );
    printTable(
      ['route', 'requests', 'entries', 'p50 ms/request', 'entries/s'],
      ingest.map((row) => [row.route, row.stats.calls, row.entries, fixed(row.stats.p50), fixed(perSecond(row), 0)]),
      ['left', 'right', 'right', 'right', 'right'],
    );
    console.log(
      `batch / single entries/s, with idempotency keys: ${ratio(perSecond(ingest[1]) / perSecond(ingest[0]))}; without: ${ratio(perSecond(ingest[4]) / perSecond(ingest[3]))} (aim ≥ 5x)`,
    );
    for (const [withDimensions, without, keys] of [
      [ingest[2], ingest[1], 'Identifiers'],
      [ingest[5], ingest[4], 'no Identifiers'],
    ] as const) {
      const share = perSecond(withDimensions) / perSecond(without);
      console.log(`batch entries/s with dimensions / without, ${keys}: ${ratio(share)} (aim ≥ 0.7x: ${share >= 0.7 ? 'met' : 'missed'})`);
    }
  } finally {
    for (const client of clients) client.close();
  }
}
