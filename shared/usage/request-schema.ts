import { builtInMeters } from '../api/event-rules';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_RULE } from '../core/idempotency';
import { numberPrecision } from './decimal';
import {
  DIMENSION_KEY_PATTERN,
  DIMENSION_KEY_RULE,
  DIMENSION_VALUE_RULE,
  DIMENSIONS_RULE,
  MAX_BATCH_ENTRIES,
  MAX_DIMENSION_VALUE_LENGTH,
  MAX_DIMENSIONS,
  MAX_FILTERS,
  MAX_GROUP_BY,
  MAX_EXTRA_INFO_LENGTH,
  MAX_OCCURRED_AT,
  MAX_USAGE,
  MAX_USAGE_DECIMAL_PLACES,
  MAX_USAGE_SIGNIFICANT_DIGITS,
  METER_PATTERN,
  METER_RULE,
  USAGE_RULE,
  type UsageInput,
} from './model';

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

/** One or two dimension keys, comma-separated. */
const KEY = DIMENSION_KEY_PATTERN.slice(1, -1);
export const GROUP_BY_PATTERN = `^${KEY}(,${KEY}){0,${MAX_GROUP_BY - 1}}$`;

/**
 * The summary's split and restriction: `groupBy=Region,Plan` and
 * `filter[Plan]=pro` (OpenAPI's deepObject style: the HTTP layer gathers the
 * `filter[Key]` parameters into one object before this schema checks it).
 */
export const summaryDimensionParameters = {
  groupBy: {
    type: 'string',
    pattern: GROUP_BY_PATTERN,
    errorMessage: `must be one or two dimension keys separated by a comma (such as Region or Region,Plan), each 1 to 40 letters, digits and '_', starting with a letter`,
  },
  filter: {
    type: 'object',
    maxProperties: MAX_FILTERS,
    propertyNames: dimensionKey,
    additionalProperties: dimensionValue,
    errorMessage: `must be given as filter[Key]=value, at most ${MAX_FILTERS} of them, each Key a dimension key and each value a string of 1 to ${MAX_DIMENSION_VALUE_LENGTH} characters`,
  },
} as const;

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
};

export const usageEntrySchema = {
  type: 'object',
  required: ['Meter', 'Usage'],
  additionalProperties: false,
  properties: entryProperties,
};

export const usageBatchSchema = {
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
};

export interface InputViolation {
  field: string;
  message: string;
}

/** The rules a schema cannot state: the precision of Usage, and meter names kept for platform events. */
export function usageInputViolations(input: UsageInput, options: { builtIn?: boolean; prefix?: string } = {}): InputViolation[] {
  const prefix = options.prefix ?? '';
  const violations: InputViolation[] = [];
  const { significantDigits, decimalPlaces } = numberPrecision(input.Usage);
  if (decimalPlaces > MAX_USAGE_DECIMAL_PLACES || significantDigits > MAX_USAGE_SIGNIFICANT_DIGITS) {
    violations.push({ field: `${prefix}Usage`, message: USAGE_RULE });
  }
  // Case-insensitively, so that no custom meter can pass for a built-in one in a summary.
  if (!options.builtIn && builtInMeters.has(input.Meter.toLowerCase())) {
    violations.push({ field: `${prefix}Meter`, message: `names the built-in meter '${input.Meter}', which only platform events record` });
  }
  return violations;
}
