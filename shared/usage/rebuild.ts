import { config } from '../core/config';
import { LEVELS } from '../db/usage-levels';
import { formatDecimal } from './decimal';
import { registerRecordedMeters } from './meters';
import { AGGREGATE_SHARDS } from './model';
import { deleteAggregates, listAggregates, listEntries, putAggregates, type AggregateRow, type EntryRow } from './repository';
import { aggregateIncrements, type CountedEntry } from './usage-writes';

export interface RebuildReport {
  entries: number;
  voided: number;
  /** Aggregates written with their recomputed totals. */
  aggregates: number;
  /** Aggregates that no counted entry supports any more, deleted. */
  removed: number;
  /** Custom meters that entries named without a registration (recorded before meters were counted), registered. */
  meters: number;
}

/**
 * Recomputes every hour, day and month aggregate of an operator, with the
 * totals of each combination of dimensions, from its stored entries, voided
 * ones left out, shard by shard (a shard's aggregates come from that shard's
 * entries alone; an entry keeps its combination's number, so the registry of
 * combinations is not read). This brings aggregates written
 * before day and month roll-ups existed up to date, and repairs any drift;
 * it also registers the meters entries name that were recorded before
 * meters were counted.
 * Entries recorded or voided while it runs may be missed: run it while the
 * operator records nothing, and again to be sure; a second run changes nothing.
 */
export async function rebuildUsageAggregates(operatorId: string, now: Date = config().clock()): Promise<RebuildReport> {
  const report: RebuildReport = { entries: 0, voided: 0, aggregates: 0, removed: 0, meters: 0 };
  const meters = new Set<string>();
  for (let shard = 0; shard < AGGREGATE_SHARDS; shard += 1) {
    const counted: CountedEntry[] = [];
    await listEntries(operatorId, shard, (entry: EntryRow) => {
      report.entries += 1;
      meters.add(entry.meter);
      if (entry.voided) report.voided += 1;
      else counted.push({ Meter: entry.meter, Usage: entry.usage, OccurredAt: entry.occurredAt, Combination: entry.combination });
    });
    // Whole items: the totals of every combination of dimensions are rebuilt too, and those no entry supports are gone.
    const rebuilt: AggregateRow[] = aggregateIncrements(counted).map(({ level, bucket, meter, usage, events, combinations }) => ({
      level,
      bucket,
      meter,
      usage: formatDecimal(usage),
      events,
      combinations: [...combinations].map(([combination, amount]) => ({
        combination,
        usage: formatDecimal(amount.usage),
        events: amount.events,
      })),
    }));
    const kept = new Set(rebuilt.map((row) => `${row.level}|${row.bucket}|${row.meter}`));
    const stale = (await Promise.all(LEVELS.map((level) => listAggregates(operatorId, shard, level))))
      .flat()
      .filter((row) => !kept.has(`${row.level}|${row.bucket}|${row.meter}`));
    await putAggregates(operatorId, shard, rebuilt);
    await deleteAggregates(operatorId, shard, stale);
    report.aggregates += rebuilt.length;
    report.removed += stale.length;
  }
  report.meters = await registerRecordedMeters(operatorId, [...meters], now);
  return report;
}
