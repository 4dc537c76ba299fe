import type { FromSchema } from 'json-schema-to-ts';
import { dayRangeQuery } from '../core/day-schemas';
import { USAGE_LEVELS } from '../db/usage-levels';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_RULE } from '../core/idempotency-key';
import {
  DIMENSION_KEY_PATTERN,
  DIMENSION_KEY_RULE,
  DIMENSION_VALUE_RULE,
  DIMENSIONS_RULE,
  GRANULARITIES,
  MAX_BATCH_ENTRIES,
  MAX_DIMENSION_VALUE_LENGTH,
  MAX_DIMENSIONS,
  MAX_FILTERS,
  MAX_GROUP_BY,
  MAX_EXTRA_INFO_LENGTH,
  MAX_OCCURRED_AT,
  MAX_SUMMARY_METERS,
  MAX_USAGE,
  METER_PATTERN,
  METER_RULE,
  USAGE_RULE,
} from './model';

/**
 * Usage metering on the wire, each schema written once: requests are
 * validated with them (`errorMessage`), the OpenAPI document shows them
 * (`description`), and the TypeScript types come from them (`FromSchema`).
 */

const dimensionValue = { type: 'string', minLength: 1, maxLength: MAX_DIMENSION_VALUE_LENGTH, errorMessage: DIMENSION_VALUE_RULE } as const;
const dimensionKey = { pattern: DIMENSION_KEY_PATTERN, errorMessage: DIMENSION_KEY_RULE } as const;

/** An entry's Dimensions: `{ "Region": "eu-west", "Plan": "pro" }`. */
export const dimensionsSchema = {
  type: 'object',
  maxProperties: MAX_DIMENSIONS,
  propertyNames: dimensionKey,
  additionalProperties: dimensionValue,
  errorMessage: DIMENSIONS_RULE,
} as const;
/** Dimension key → value. */
export type Dimensions = FromSchema<typeof dimensionsSchema>;

/** One or two dimension keys, comma-separated. */
const KEY = DIMENSION_KEY_PATTERN.slice(1, -1);
export const GROUP_BY_PATTERN = `^${KEY}(,${KEY}){0,${MAX_GROUP_BY - 1}}$`;

/** One to MAX_SUMMARY_METERS meter names, comma-separated (a meter name holds no comma). */
const METER = METER_PATTERN.slice(1, -1);
export const SUMMARY_METERS_PATTERN = `^${METER}(,${METER}){0,${MAX_SUMMARY_METERS - 1}}$`;

/** The fields of one usage entry, as the single-entry route and every entry of a batch take them. */
const entryProperties = {
  Meter: { type: 'string', pattern: METER_PATTERN, errorMessage: METER_RULE },
  Usage: { type: 'number', exclusiveMinimum: 0, maximum: MAX_USAGE, errorMessage: USAGE_RULE },
  ExtraInfo: {
    type: 'string',
    maxLength: MAX_EXTRA_INFO_LENGTH,
    errorMessage: `must be a string of at most ${MAX_EXTRA_INFO_LENGTH} characters`,
  },
  OccurredAt: {
    type: 'integer',
    minimum: 0,
    maximum: MAX_OCCURRED_AT,
    errorMessage: `must be an integer Unix timestamp in seconds from 0 to ${MAX_OCCURRED_AT} (9998-12-31T23:59:59Z)`,
  },
  Dimensions: dimensionsSchema,
} as const;

/** POST /api/v2/usage/meters */
export const usageEntryBody = {
  type: 'object',
  required: ['Meter', 'Usage'],
  additionalProperties: false,
  properties: entryProperties,
} as const;
export type UsageInput = FromSchema<typeof usageEntryBody>;

/** POST /api/v2/usage/meters/batch */
export const usageBatchBody = {
  type: 'object',
  required: ['Entries'],
  additionalProperties: false,
  properties: {
    Entries: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_BATCH_ENTRIES,
      errorMessage: `must be an array of 1 to ${MAX_BATCH_ENTRIES} usage entries`,
      items: {
        type: 'object',
        required: ['Meter', 'Usage'],
        additionalProperties: false,
        properties: {
          ...entryProperties,
          Identifier: {
            type: 'string',
            pattern: IDEMPOTENCY_KEY_PATTERN,
            errorMessage: IDEMPOTENCY_KEY_RULE,
          },
        },
      },
    },
  },
} as const;
export type UsageBatchRequest = FromSchema<typeof usageBatchBody>;
/** One entry of a batch: an input with its own idempotency key. */
export type BatchEntryInput = UsageBatchRequest['Entries'][number];

/** POST /api/v2/usage/meters/{ID}/void */
export const usageEntryPath = {
  type: 'object',
  required: ['ID'],
  properties: { ID: { type: 'string', pattern: '^[0-9]{1,16}$', errorMessage: 'must be the integer ID of a usage entry' } },
} as const;

/** GET /api/v2/usage/meters */
export const usageSummaryQuery = {
  type: 'object',
  required: dayRangeQuery.required,
  properties: {
    ...dayRangeQuery.properties,
    tz: { type: 'string', minLength: 1, maxLength: 64, errorMessage: 'must be an IANA time zone name such as Europe/Lisbon' },
    granularity: {
      type: 'string',
      enum: GRANULARITIES,
      errorMessage: `must be one of ${GRANULARITIES.map((g) => `'${g}'`).join(', ')} when given`,
    },
    groupBy: {
      type: 'string',
      pattern: GROUP_BY_PATTERN,
      errorMessage: `must be one or two dimension keys separated by a comma (such as Region or Region,Plan), each 1 to 40 letters, digits and '_', starting with a letter`,
    },
    meter: {
      type: 'string',
      maxLength: MAX_SUMMARY_METERS * 129,
      pattern: SUMMARY_METERS_PATTERN,
      errorMessage: `must be one to ${MAX_SUMMARY_METERS} meter names separated by commas (such as api-calls or api-calls,storage-gb)`,
    },
    // OpenAPI's deepObject style, `filter[Plan]=pro`: the HTTP layer gathers the `filter[Key]` parameters into this object.
    filter: {
      type: 'object',
      maxProperties: MAX_FILTERS,
      propertyNames: dimensionKey,
      additionalProperties: dimensionValue,
      errorMessage: `must be given as filter[Key]=value, at most ${MAX_FILTERS} of them, each Key a dimension key and each value a string of 1 to ${MAX_DIMENSION_VALUE_LENGTH} characters`,
    },
  },
} as const;
export type UsageSummaryRequest = FromSchema<typeof usageSummaryQuery>;

const count = { type: 'integer', minimum: 0 } as const;
const date = { type: 'string', format: 'date', description: 'YYYY-MM-DD' } as const;

const recordedEntryProperties = {
  ID: { type: 'integer', minimum: 0, description: 'Ordered by recording time' },
  Meter: { type: 'string', pattern: METER_PATTERN },
  Usage: { type: 'number', exclusiveMinimum: 0 },
  OccurredAt: { type: 'integer', minimum: 0, description: 'Unix seconds' },
  Dimensions: {
    type: 'object',
    minProperties: 1,
    maxProperties: MAX_DIMENSIONS,
    propertyNames: { pattern: DIMENSION_KEY_PATTERN },
    additionalProperties: { type: 'string', minLength: 1, maxLength: MAX_DIMENSION_VALUE_LENGTH },
    description: 'As sent, keys in code-point order; absent when the entry has none (`{}` is none)',
  },
} as const;

/** The recorded entry as the API returns it. */
export const usageEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ID', 'Meter', 'Usage', 'OccurredAt'],
  properties: recordedEntryProperties,
} as const;
export type UsageEntry = FromSchema<typeof usageEntrySchema>;

const batchEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ID', 'Meter', 'Usage', 'OccurredAt', 'Replayed'],
  properties: {
    ...recordedEntryProperties,
    Identifier: { type: 'string', description: 'As sent' },
    Replayed: {
      type: 'boolean',
      description:
        'True when the Identifier was seen before (in an earlier batch or earlier in this one): this is the original entry, not counted again',
    },
  },
} as const;
/** A batch entry as answered: the entry recorded, or for a repeated Identifier the original one. */
export type BatchEntryResult = FromSchema<typeof batchEntrySchema>;

export const usageBatchResultSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Entries'],
  properties: { Entries: { type: 'array', items: batchEntrySchema, description: 'One per entry sent, in the same order' } },
} as const;

/** A voided entry: kept, marked, and no longer counted. */
export const voidedUsageEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ID', 'Meter', 'Usage', 'OccurredAt', 'VoidedAt'],
  properties: { ...recordedEntryProperties, VoidedAt: { type: 'integer', minimum: 0, description: 'Unix seconds of the (first) void' } },
} as const;
export type VoidedUsageEntry = FromSchema<typeof voidedUsageEntrySchema>;

/** A series per level of usage aggregates, named as the level names it (usage-levels.ts). */
const { hour, day, month } = USAGE_LEVELS;
const seriesPoint = { Usage: { type: 'number', minimum: 0 }, Events: count } as const;

const summaryMeterSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Meter', 'TotalUsage', 'EventCount'],
  properties: {
    Meter: { type: 'string' },
    Dimensions: {
      type: 'object',
      minProperties: 1,
      maxProperties: MAX_GROUP_BY,
      propertyNames: { pattern: DIMENSION_KEY_PATTERN },
      additionalProperties: { type: ['string', 'null'] },
      description: "groupBy only: the group's value of each grouped key, null for the entries that lack the key",
    },
    TotalUsage: { type: 'number', minimum: 0 },
    EventCount: count,
    [hour.seriesField]: {
      type: 'array',
      description: 'granularity=hour only: one point per hour of the period',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['Start', 'Timestamp', 'Usage', 'Events'],
        properties: {
          Start: { type: 'string', format: 'date-time', description: "The hour's start, local to the zone, with its UTC offset" },
          Timestamp: { type: 'integer', description: "Unix seconds of the hour's start" },
          ...seriesPoint,
        },
      },
    },
    [day.seriesField]: {
      type: 'array',
      description: 'granularity=day only: one point per day of the period',
      items: {
        type: 'object',
        additionalProperties: false,
        required: [day.seriesPoints.label, 'Usage', 'Events'],
        properties: { [day.seriesPoints.label]: date, ...seriesPoint },
      },
    },
    [month.seriesField]: {
      type: 'array',
      description:
        'granularity=month only: one point per calendar month of the zone that the period touches; the first and last count only the days inside the period',
      items: {
        type: 'object',
        additionalProperties: false,
        required: [month.seriesPoints.label, 'Usage', 'Events'],
        properties: { [month.seriesPoints.label]: { type: 'string', pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-MM' }, ...seriesPoint },
      },
    },
  },
} as const;
export type UsageSummaryMeter = FromSchema<typeof summaryMeterSchema>;

export const usageSummarySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Period', 'Totals', 'Meters'],
  properties: {
    Period: {
      type: 'object',
      additionalProperties: false,
      required: ['From', 'To', 'FromTimestamp', 'ToTimestamp', 'TimeZone'],
      properties: {
        From: date,
        To: date,
        FromTimestamp: { type: 'integer', description: "Unix seconds of `from`'s midnight in the zone" },
        ToTimestamp: { type: 'integer', description: 'Unix seconds of the last second of `to` in the zone' },
        TimeZone: { type: 'string', description: 'The zone used, named as the request named it (a listed zone in its listed case)' },
      },
    },
    Totals: {
      type: 'object',
      additionalProperties: false,
      required: ['Usage', 'Events'],
      properties: { Usage: { type: 'number', minimum: 0 }, Events: count },
    },
    Meters: {
      type: 'array',
      description:
        'One per meter, or with groupBy one per meter and group. Sorted by TotalUsage descending, ties by Meter, then by the grouped values in groupBy order (null first, then code-point order)',
      items: summaryMeterSchema,
    },
  },
} as const;
export type UsageSummary = FromSchema<typeof usageSummarySchema>;
