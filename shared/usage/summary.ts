import { ValidationError } from '../core/errors';
import { LEVELS, USAGE_LEVELS, type UsageLevel } from '../db/usage-levels';
import { bucketStart, cover, nextStart, type Cell } from './buckets';
import { dimensionsOfCombinations, dimensionValue } from './combinations';
import { decimalToNumber, microsToDecimal, parseMicros } from './decimal';
import { summaryPeriod, type Interval, type SeriesPoint } from './period';
import type { Dimensions, UsageSummary, UsageSummaryMeter, UsageSummaryRequest } from './schemas';
import { getAggregates } from './aggregates-by-key';
import { AGGREGATE_SHARDS, MAX_SUMMARY_ITEMS, MAX_SUMMARY_METERS } from './model';
import { queryAggregates, type AggregateRow, type ReadCost } from './repository';

/** A total of usage (in millionths: exact, see `parseMicros`) and of entries. */
interface Amount {
  usage: bigint;
  events: number;
}

const NOTHING: Amount = { usage: 0n, events: 0 };

/** The JSON number of a total, exact as decimals are (see `decimalToNumber`). */
const usageNumber = (micros: bigint): number => decimalToNumber(microsToDecimal(micros));

export interface UsageSummaryResult {
  summary: UsageSummary;
  /** What the summary cost DynamoDB: it depends on the range, the meters and the shards, never on the number of entries. */
  readCost: ReadCost;
}

/** A run of consecutive buckets of one level: one Query per shard. */
interface Run {
  level: UsageLevel;
  first: string;
  last: string;
}

/** The cells needed, grouped into runs of consecutive buckets of each level. */
function runsOf(cells: Cell[]): Run[] {
  const runs: Run[] = [];
  for (const level of LEVELS) {
    const buckets = [...new Set(cells.filter((cell) => cell.level === level).map((cell) => cell.bucket))].sort();
    for (const bucket of buckets) {
      const last = runs[runs.length - 1];
      if (last?.level === level && nextStart(level, bucketStart(level, last.last)) === bucketStart(level, bucket)) last.last = bucket;
      else runs.push({ level, first: bucket, last: bucket });
    }
  }
  return runs;
}

/** Queries in flight at once: a daily series in a zone off UTC reads a few hours at every midnight. */
const MAX_PARALLEL_QUERIES = 32;

/** What a summary reads: the runs of its cells, and the meters it names (every meter when none). */
interface Reading {
  runs: Run[];
  cells: Cell[];
  meters?: string[];
}

/** The cost of a summary's reads so far, and the most items it may read. */
export type Budgeted = ReadCost & { maxItems: number };

const tooLarge = (items: string) =>
  new ValidationError(
    `This summary would read ${items} usage aggregates, over the limit of ${MAX_SUMMARY_ITEMS}: narrow the range (from, to), ` +
      `ask for a coarser granularity or none, or name the meters it covers (meter=api-calls,storage-gb, up to ${MAX_SUMMARY_METERS})`,
  );

/**
 * Every shard's aggregates of every run, of every meter, read by Query, up
 * to the budget: past it, the summary is refused rather than read on.
 */
async function queryRows(operatorId: string, runs: Run[], cost: Budgeted, combinations: boolean): Promise<AggregateRow[]> {
  const rows: AggregateRow[] = [];
  const queries = runs.flatMap((run) => Array.from({ length: AGGREGATE_SHARDS }, (_, shard) => ({ run, shard })));
  let next = 0;
  const worker = async () => {
    while (next < queries.length && cost.itemsRead <= cost.maxItems) {
      const { run, shard } = queries[next++];
      const range = { firstBucket: run.first, lastBucket: run.last, combinations };
      rows.push(...(await queryAggregates(operatorId, shard, run.level, range, cost)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(MAX_PARALLEL_QUERIES, queries.length) }, worker));
  if (cost.itemsRead > cost.maxItems) throw tooLarge(`more than ${cost.maxItems}`);
  return rows;
}

/**
 * The aggregates a summary reads; with `combinations`, each with the totals
 * of its combinations of dimensions. Of named meters, each cell's aggregate
 * is read by its key in every shard: their number is known before anything
 * is read, and refused at once past the budget.
 */
async function readRows(operatorId: string, reading: Reading, cost: Budgeted, combinations: boolean): Promise<AggregateRow[]> {
  if (!reading.meters) return queryRows(operatorId, reading.runs, cost, combinations);
  const cells = [...new Map(reading.cells.map((cell) => [`${cell.level}|${cell.bucket}`, cell])).values()];
  const keys = cells.length * reading.meters.length * AGGREGATE_SHARDS;
  if (keys > cost.maxItems) throw tooLarge(String(keys));
  const refs = cells.flatMap(({ level, bucket }) =>
    reading.meters!.flatMap((meter) => Array.from({ length: AGGREGATE_SHARDS }, (_, shard) => ({ shard, level, bucket, meter }))),
  );
  return getAggregates(operatorId, refs, combinations, cost);
}

/** One item of the answer: a meter, or with groupBy a meter and one group's values (null where entries lack the key). */
interface Line {
  meter: string;
  values?: (string | null)[];
}

/** Cell key → line key → amount: what every aggregate read adds to each line. */
type Cells = Map<string, Map<string, Amount>>;

/** The amounts of the cell an aggregate belongs to, by line. */
function cellOf(cells: Cells, row: AggregateRow): Map<string, Amount> {
  const key = `${row.level}|${row.bucket}`;
  let amounts = cells.get(key);
  if (!amounts) cells.set(key, (amounts = new Map()));
  return amounts;
}

function add(amounts: Map<string, Amount>, line: string, usage: bigint, events: number): void {
  const amount = amounts.get(line) ?? NOTHING;
  amounts.set(line, { usage: amount.usage + usage, events: amount.events + events });
}

/** Summed over the shards, by meter: what the summary without groupBy and filter reads. */
export async function readCells(operatorId: string, reading: Reading, cost: Budgeted): Promise<Cells> {
  const cells: Cells = new Map();
  for (const row of await readRows(operatorId, reading, cost, false))
    add(cellOf(cells, row), row.meter, parseMicros(row.usage), row.events);
  return cells;
}

/** Which entries count (filter) and how they are split (groupBy). */
interface Selection {
  groupBy: string[];
  filter: [string, string][];
}

/**
 * Summed over the shards, by line: each aggregate's totals split by its
 * combinations of dimensions, entries without dimensions being what its
 * TotalUsage and EventCount hold beyond them. The same items the summary
 * without groupBy reads, read whole, and the registry of combinations for
 * those this process has not seen.
 */
async function readSelectedCells(
  operatorId: string,
  reading: Reading,
  cost: Budgeted,
  selection: Selection,
  lines: Map<string, Line>,
): Promise<Cells> {
  const rows = await readRows(operatorId, reading, cost, true);
  const refs = new Map<string, { meter: string; combination: number }>();
  for (const row of rows)
    for (const { combination } of row.combinations!) refs.set(`${row.meter}\n${combination}`, { meter: row.meter, combination });
  const read = { items: 0 };
  const dimensionsOf = await dimensionsOfCombinations(operatorId, [...refs.values()], read);
  cost.combinationsRead += read.items;

  const lineOf = (meter: string, dimensions: Dimensions): string | undefined => {
    if (!selection.filter.every(([key, value]) => dimensionValue(dimensions, key) === value)) return undefined;
    if (!selection.groupBy.length) return meter;
    const values = selection.groupBy.map((key) => dimensionValue(dimensions, key));
    const key = JSON.stringify([meter, ...values]);
    if (!lines.has(key)) lines.set(key, { meter, values });
    return key;
  };
  // Every aggregate of a meter names the same few combinations: each is placed in its line once, per meter by number.
  const linesOfMeter = new Map<string, Map<number, string | undefined>>();
  for (const { meter, combination } of refs.values()) {
    let byNumber = linesOfMeter.get(meter);
    if (!byNumber) linesOfMeter.set(meter, (byNumber = new Map()));
    byNumber.set(combination, lineOf(meter, dimensionsOf(meter, combination)));
  }
  const cells: Cells = new Map();
  // Entries without dimensions never match a filter; grouped, they are the group whose values are all null.
  const countsRest = !selection.filter.length;
  for (const row of rows) {
    const amounts = cellOf(cells, row);
    const lineOfNumber = linesOfMeter.get(row.meter);
    let restUsage = parseMicros(row.usage);
    let restEvents = row.events;
    for (const { combination, usage, events } of row.combinations!) {
      const line = lineOfNumber?.get(combination);
      if (line === undefined && !countsRest) continue;
      const amount = parseMicros(usage);
      if (line !== undefined) add(amounts, line, amount, events);
      restUsage -= amount;
      restEvents -= events;
    }
    if (countsRest) add(amounts, lineOf(row.meter, {})!, restUsage, restEvents);
  }
  return cells;
}

/** Per line, the signed sum of an interval's cells. */
function sumCells(cover: Cell[], cells: Cells): Map<string, Amount> {
  const sums = new Map<string, Amount>();
  for (const { level, bucket, sign } of cover) {
    for (const [line, amount] of cells.get(`${level}|${bucket}`) ?? []) {
      const sum = sums.get(line) ?? NOTHING;
      sums.set(line, { usage: sum.usage + BigInt(sign) * amount.usage, events: sum.events + sign * amount.events });
    }
  }
  return sums;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Null (entries without the key) before any value. */
const compareValues = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : compareText(a, b));

/** TotalUsage descending, then meter, then the group's values in groupBy order: a total order. */
const byTotalThenLine =
  (lines: Map<string, Line>) =>
  ([aKey, a]: [string, Amount], [bKey, b]: [string, Amount]): number => {
    const [aLine, bLine] = [lines.get(aKey)!, lines.get(bKey)!];
    const byValues = () => (aLine.values ?? []).reduce((order, value, i) => order || compareValues(value, bLine.values![i]), 0);
    return (b.usage > a.usage ? 1 : b.usage < a.usage ? -1 : 0) || compareText(aLine.meter, bLine.meter) || byValues();
  };

/** groupBy's keys must differ; every other rule of groupBy and filter is the query schema's. */
function selectionOf(request: UsageSummaryRequest): Selection | undefined {
  const groupBy = request.groupBy?.split(',') ?? [];
  const filter = Object.entries(request.filter ?? {});
  if (!groupBy.length && !filter.length) return undefined;
  if (new Set(groupBy).size !== groupBy.length) {
    throw new ValidationError(`names '${groupBy[0]}' twice; group by one key, or by two different keys`, { field: 'groupBy' });
  }
  return { groupBy, filter };
}

/**
 * What a summary reads: the cover of each span asked for (the period, or
 * each point of its series), in runs of buckets, of the meters it names
 * (each once), or of every meter.
 */
export function summaryPlan(request: UsageSummaryRequest) {
  const period = summaryPeriod(request.from, request.to, request.tz, request.granularity);
  // The points of a series make up the whole period, so its totals are their sums and need no cells of their own.
  const spans: Interval[] = period.points.length ? period.points : [period];
  const covers = spans.map(cover);
  const cells = covers.flat();
  const meters = request.meter ? [...new Set(request.meter.split(','))] : undefined;
  return { period, covers, reading: { runs: runsOf(cells), cells, meters } };
}

/**
 * Per-meter totals of an operator over whole days of a zone, summed exactly
 * from aggregates (never from entries). Each span asked for (the period, or
 * each point of the series) is covered by the fewest hour, day and month
 * buckets (see `cover`), so the items read depend on the range, the meters
 * and the shards alone. With groupBy or a filter the same items are read
 * whole and split by their combinations of dimensions; without them the
 * answer and the reads are those of a meter without dimensions.
 */
export async function summarizeUsage(operatorId: string, request: UsageSummaryRequest): Promise<UsageSummaryResult> {
  const selection = selectionOf(request);
  const { period, covers, reading } = summaryPlan(request);
  const cost: Budgeted = { queries: 0, itemsRead: 0, capacityUnits: 0, combinationsRead: 0, maxItems: MAX_SUMMARY_ITEMS };
  const lines = new Map<string, Line>();
  const cells = selection
    ? await readSelectedCells(operatorId, reading, cost, selection, lines)
    : await readCells(operatorId, reading, cost);
  const spanSums = covers.map((spanCover) => sumCells(spanCover, cells));

  const totals = new Map<string, Amount>();
  for (const sums of spanSums) {
    for (const [line, amount] of sums) {
      const total = totals.get(line) ?? NOTHING;
      totals.set(line, { usage: total.usage + amount.usage, events: total.events + amount.events });
    }
  }
  for (const line of totals.keys()) if (!lines.has(line)) lines.set(line, { meter: line });
  // A line whose every entry in the period was voided has nothing left to show.
  const sorted = [...totals.entries()].filter(([, total]) => total.events > 0).sort(byTotalThenLine(lines));
  const series = (line: string) =>
    period.points.map((point: SeriesPoint, i) => {
      const amount = spanSums[i].get(line) ?? NOTHING;
      return { ...point.label, Usage: usageNumber(amount.usage), Events: amount.events };
    });
  const meters: UsageSummaryMeter[] = sorted.map(([line, total]) => {
    const { meter, values } = lines.get(line)!;
    return {
      Meter: meter,
      ...(values ? { Dimensions: Object.fromEntries(selection!.groupBy.map((key, i) => [key, values[i]])) } : {}),
      TotalUsage: usageNumber(total.usage),
      EventCount: total.events,
      ...(request.granularity ? { [USAGE_LEVELS[request.granularity].seriesField]: series(line) } : {}),
    };
  });
  const totalUsage = sorted.reduce((sum, [, total]) => sum + total.usage, 0n);

  return {
    summary: {
      Period: { From: period.from, To: period.to, FromTimestamp: period.start, ToTimestamp: period.end - 1, TimeZone: period.timeZone },
      Totals: { Usage: usageNumber(totalUsage), Events: sorted.reduce((sum, [, total]) => sum + total.events, 0) },
      Meters: meters,
    },
    readCost: {
      queries: cost.queries,
      itemsRead: cost.itemsRead,
      capacityUnits: cost.capacityUnits,
      combinationsRead: cost.combinationsRead,
    },
  };
}
