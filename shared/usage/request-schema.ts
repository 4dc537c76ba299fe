import { builtInMeters } from '../api/event-rules';
import type { FieldViolation } from '../core/errors';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_RULE } from '../core/idempotency';
import { numberPrecision } from './decimal';
import {
  MAX_BATCH_ENTRIES,
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

/** The rules a schema cannot state: the precision of Usage, and meter names kept for platform events. */
export function usageInputViolations(input: UsageInput, options: { builtIn?: boolean; prefix?: string } = {}): FieldViolation[] {
  const prefix = options.prefix ?? '';
  const violations: FieldViolation[] = [];
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
