/** Limits, shapes and stored items of usage metering. The README's "Usage metering" section documents each limit. */

/** Meter names: 1 to 128 letters, digits and `. _ - : /`, starting with a letter or digit. `#` is excluded because it separates key segments. */
export const METER_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$';
export const METER_RULE = "must be 1 to 128 characters: letters, digits and '.', '_', '-', ':', '/', starting with a letter or digit";

/** Usage is greater than 0 and at most 10^12 ... */
export const MAX_USAGE = 1_000_000_000_000;
/** ... with at most 6 decimal places ... */
export const MAX_USAGE_DECIMAL_PLACES = 6;
/** ... and at most 15 significant digits: every such decimal survives the JSON parser's double unchanged. */
export const MAX_USAGE_SIGNIFICANT_DIGITS = 15;
export const USAGE_RULE = `must be a number greater than 0 and at most ${MAX_USAGE}, with at most ${MAX_USAGE_DECIMAL_PLACES} decimal places and ${MAX_USAGE_SIGNIFICANT_DIGITS} significant digits`;

/** ExtraInfo is free text (often JSON) of at most this many characters. */
export const MAX_EXTRA_INFO_LENGTH = 4096;

/** OccurredAt lies from the Unix epoch through 9998-12-31T23:59:59Z, the last second a summary's `to` (SUPPORTED_DAYS) reaches. */
export const MAX_OCCURRED_AT = 253_370_764_799;

/** The longest from..to span a summary accepts, both days included: a leap year, for annual billing. */
export const MAX_SUMMARY_DAYS = 366;
/** The longest span of a summary with granularity=hour (at most 7 × 25 points per meter). */
export const MAX_HOURLY_DAYS = 7;

export const GRANULARITIES = ['hour', 'day', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** Entries of one batch request. */
export const MAX_BATCH_ENTRIES = 100;

/**
 * Each entry adds to one of this many aggregate items of its meter and hour
 * (and day, and month), chosen at random, so a hot meter spreads its writes
 * over as many items and partitions. A summary reads every shard, so raising
 * it raises the write ceiling (README, "Cost model") and the items a summary
 * reads alike. Raising it is safe at any time; lowering it would hide the
 * aggregates of the dropped shards from summaries.
 */
export const AGGREGATE_SHARDS = 8;

/** How long an Idempotency-Key (or a platform event ID) is remembered. */
export const IDEMPOTENCY_TTL_SECONDS = 7 * 24 * 60 * 60;

export interface SeriesPoint {
  Usage: number;
  Events: number;
}
