/**
 * The levels of usage aggregates, finest first: every entry is added to one
 * bucket of each level, and a summary sums a span from the fewest buckets.
 * Each row holds everything that differs between levels, so a level (a
 * summary's granularity) is one row here: the keys (keys.ts), the buckets
 * (shared/usage/buckets.ts), a summary's series (shared/usage/summary.ts)
 * and the names in its answer's schema (shared/usage/schemas.ts) all read it.
 */
export interface UsageLevelRow {
  /** A bucket's name: the first this many characters of an ISO 8601 UTC instant in it (`2026-07-01T09`, `2026-07-01`, `2026-07`). */
  nameLength: number;
  /** What completes a bucket's name into the instant it starts. */
  startSuffix: string;
  /** The start of the bucket after the one that starts at `start` (Unix seconds). */
  next: (start: number) => number;
  /** The segment of its aggregates' partition, and of their sort keys. */
  partition: string;
  prefix: string;
  /** The member of a summary's meter that holds its series at this granularity ... */
  seriesField: string;
  /**
   * ... and the points the series cuts the summary's period into, in the
   * summary's zone: its hours (each labelled by its start: `Start`, with the
   * zone's offset, and `Timestamp`), or runs of its days whose dates agree in
   * their first `length` characters (each labelled by those, as `label`).
   */
  seriesPoints: { each: 'hour' } | { each: 'date'; length: number; label: string };
}

export const USAGE_LEVELS = {
  // The hour aggregates keep the partition name they had before day and month roll-ups existed.
  hour: {
    nameLength: 13,
    startSuffix: ':00:00Z',
    next: (start) => start + 3600,
    partition: 'AGGREGATES',
    prefix: 'HOUR',
    seriesField: 'Hours',
    seriesPoints: { each: 'hour' },
  },
  day: {
    nameLength: 10,
    startSuffix: 'T00:00:00Z',
    next: (start) => start + 86_400,
    partition: 'DAYS',
    prefix: 'DAY',
    seriesField: 'Days',
    seriesPoints: { each: 'date', length: 10, label: 'Date' },
  },
  month: {
    nameLength: 7,
    startSuffix: '-01T00:00:00Z',
    next: (start) => {
      const date = new Date(start * 1000);
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000;
    },
    partition: 'MONTHS',
    prefix: 'MONTH',
    seriesField: 'Months',
    seriesPoints: { each: 'date', length: 7, label: 'Month' },
  },
} as const satisfies Record<string, UsageLevelRow>;

export type UsageLevel = keyof typeof USAGE_LEVELS;

/** The levels, finest first. */
export const LEVELS = /* @__PURE__ */ Object.keys(USAGE_LEVELS) as UsageLevel[];
