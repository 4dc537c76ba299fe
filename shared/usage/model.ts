import { LEVELS, type UsageLevel } from '../db/usage-levels';

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

/** A summary's series may be of any usage level, finest first: one row each in shared/db/usage-levels.ts. */
export const GRANULARITIES = LEVELS;
export type Granularity = UsageLevel;

/**
 * The custom meters one operator may have, over all time; the built-in
 * meters of platform events (three) are not counted, so a tenant's meters
 * can never refuse a platform event. A meter is a named product measure
 * (API calls, storage, seats), created deliberately, not one per customer or
 * request (those are Dimensions or ExtraInfo). With the built-in ones, a
 * summary without a series reads at most 69 cells × 53 meters × 8 shards =
 * 29,256 aggregates for any range and zone, within MAX_SUMMARY_ITEMS
 * (docs/usage.md, "Limits of meters and summaries"). Below 99, so that one transaction
 * registers a request's new meters with the count.
 */
export const MAX_METERS = 50;

/**
 * The aggregates one summary may read. Past it the summary is refused (422:
 * narrow the range, drop the series, or name the meters), so a summary's
 * time is bounded whatever an operator has recorded.
 */
export const MAX_SUMMARY_ITEMS = 30_000;
/** A summary's `meter` names at most this many meters. */
export const MAX_SUMMARY_METERS = 10;

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

/** An entry's Dimensions: at most this many keys ... */
export const MAX_DIMENSIONS = 5;
/** ... each key 1 to 40 letters, digits and '_', starting with a letter (so no key can name an inherited member such as `__proto__`) ... */
export const DIMENSION_KEY_PATTERN = '^[A-Za-z][A-Za-z0-9_]{0,39}$';
export const DIMENSION_KEY_RULE = "must be a dimension key: 1 to 40 letters, digits and '_', starting with a letter";
/** ... each value a string of 1 to 100 characters. */
export const MAX_DIMENSION_VALUE_LENGTH = 100;
export const DIMENSION_VALUE_RULE = `must be a string of 1 to ${MAX_DIMENSION_VALUE_LENGTH} characters`;
export const DIMENSIONS_RULE = `must be an object of at most ${MAX_DIMENSIONS} dimensions, each a key (1 to 40 letters, digits and '_', starting with a letter) with a string value of 1 to ${MAX_DIMENSION_VALUE_LENGTH} characters`;

/**
 * The distinct Dimensions combinations one meter may have, over all time.
 * Every aggregate item of a meter holds two numbers per combination seen in
 * its hour, day or month, so this bounds the largest item (a month's, about
 * 13 bytes per combination: README, "Usage by dimension"), what a write of it
 * costs, and what a grouped summary reads.
 */
export const MAX_DIMENSION_COMBINATIONS = 250;

/**
 * An aggregate's total of one combination of dimensions: `U<n>` (usage) and
 * `E<n>` (entries) beside TotalUsage and EventCount, which count every entry.
 */
export const combinationAttributes = (combination: number) => ({ usage: `U${combination}`, events: `E${combination}` });
export const COMBINATION_ATTRIBUTE = /^[UE][1-9]\d*$/;

/** The combination number an aggregate's attribute holds a total of, or undefined for its other attributes. */
export const combinationOfAttribute = (name: string): number | undefined =>
  COMBINATION_ATTRIBUTE.test(name) ? Number(name.slice(1)) : undefined;

/**
 * An entry's or a combination's Dimensions as the document client writes
 * them: a Map, because its marshaller tells an object's kind by
 * `value.constructor`, which a dimension named `constructor` would answer.
 */
export const dimensionsAttribute = (dimensions: Record<string, string>) => new Map(Object.entries(dimensions));

/** A summary groups by at most this many dimension keys ... */
export const MAX_GROUP_BY = 2;
/** ... and filters on at most this many. */
export const MAX_FILTERS = 5;

/** How long an Idempotency-Key (or a platform event ID) is remembered. */
export const IDEMPOTENCY_TTL_SECONDS = 7 * 24 * 60 * 60;

export interface SeriesPoint {
  Usage: number;
  Events: number;
}
