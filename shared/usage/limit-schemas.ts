import type { FromSchema } from 'json-schema-to-ts';
import {
  AMOUNT_RULE,
  ENFORCEMENTS,
  LIMIT_ID_PATTERN,
  LIMIT_ID_RULE,
  LIMIT_PERIODS,
  MAX_LIMIT_AMOUNT,
  MAX_THRESHOLD_PERCENT,
  MAX_THRESHOLDS,
  THRESHOLD_RULE,
} from './limit-model';
import {
  DIMENSION_KEY_PATTERN,
  DIMENSION_KEY_RULE,
  DIMENSION_VALUE_RULE,
  MAX_DIMENSION_VALUE_LENGTH,
  MAX_FILTERS,
  METER_PATTERN,
  METER_RULE,
} from './model';

/** Usage limits on the wire: the definition a PUT takes, the limit as answered, and its status. */

const listed = (values: readonly string[]) => values.map((value) => `'${value}'`).join(' or ');

/** PUT /api/v2/usage/limits/{LimitID}, and every route of one limit. */
export const usageLimitPath = {
  type: 'object',
  required: ['LimitID'],
  properties: { LimitID: { type: 'string', pattern: LIMIT_ID_PATTERN, errorMessage: LIMIT_ID_RULE } },
} as const;

/** A summary's `filter[Key]=value`, as an object: only entries whose dimensions have every one of these values count. */
const filterSchema = {
  type: 'object',
  maxProperties: MAX_FILTERS,
  propertyNames: { pattern: DIMENSION_KEY_PATTERN, errorMessage: DIMENSION_KEY_RULE },
  additionalProperties: { type: 'string', minLength: 1, maxLength: MAX_DIMENSION_VALUE_LENGTH, errorMessage: DIMENSION_VALUE_RULE },
  errorMessage: `must be an object of at most ${MAX_FILTERS} dimensions, each a key with the string value an entry's dimension must have to count`,
} as const;

/** PUT /api/v2/usage/limits/{LimitID} */
export const usageLimitBody = {
  type: 'object',
  required: ['Meter', 'Period', 'Amount', 'Thresholds', 'Enforcement'],
  additionalProperties: false,
  properties: {
    Meter: { type: 'string', pattern: METER_PATTERN, errorMessage: METER_RULE },
    Filter: filterSchema,
    Period: { type: 'string', enum: LIMIT_PERIODS, errorMessage: `must be ${listed(LIMIT_PERIODS)}` },
    TimeZone: { type: 'string', minLength: 1, maxLength: 64, errorMessage: 'must be an IANA time zone name such as Europe/Lisbon' },
    Amount: { type: 'number', exclusiveMinimum: 0, maximum: MAX_LIMIT_AMOUNT, errorMessage: AMOUNT_RULE },
    Thresholds: {
      type: 'array',
      maxItems: MAX_THRESHOLDS,
      uniqueItems: true,
      items: { type: 'number', exclusiveMinimum: 0, maximum: MAX_THRESHOLD_PERCENT, errorMessage: THRESHOLD_RULE },
      errorMessage: `must be a list of at most ${MAX_THRESHOLDS} different percentages of the Amount (such as [50, 80, 100])`,
    },
    Enforcement: { type: 'string', enum: ENFORCEMENTS, errorMessage: `must be ${listed(ENFORCEMENTS)}` },
  },
} as const;
export type UsageLimitInput = FromSchema<typeof usageLimitBody>;

const unixSeconds = { type: 'integer', description: 'Unix seconds' } as const;
const amount = { type: 'number', minimum: 0 } as const;

/** A limit as answered. */
export const usageLimitSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['LimitID', 'Meter', 'Period', 'TimeZone', 'Amount', 'Thresholds', 'Enforcement', 'AppliesFrom', 'CreatedAt', 'UpdatedAt'],
  properties: {
    LimitID: { type: 'string', pattern: LIMIT_ID_PATTERN },
    Meter: { type: 'string', pattern: METER_PATTERN },
    Filter: {
      type: 'object',
      minProperties: 1,
      maxProperties: MAX_FILTERS,
      propertyNames: { pattern: DIMENSION_KEY_PATTERN },
      additionalProperties: { type: 'string', minLength: 1, maxLength: MAX_DIMENSION_VALUE_LENGTH },
      description: 'Only entries whose dimensions have every one of these values count; absent: every entry of the meter',
    },
    Period: { type: 'string', enum: LIMIT_PERIODS },
    TimeZone: { type: 'string', description: "The zone of the periods: as the limit named it, or the operator's when it named none" },
    Amount: { type: 'number', exclusiveMinimum: 0, maximum: MAX_LIMIT_AMOUNT },
    Thresholds: {
      type: 'array',
      items: { type: 'number', exclusiveMinimum: 0, maximum: MAX_THRESHOLD_PERCENT },
      description: 'Percentages of the Amount, ascending',
    },
    Enforcement: { type: 'string', enum: ENFORCEMENTS },
    AppliesFrom: {
      ...unixSeconds,
      description:
        'The start of the period in which the limit was created or its definition last changed: the Amount and Thresholds apply to this period and the ones after it',
    },
    CreatedAt: { type: 'string', format: 'date-time' },
    UpdatedAt: { type: 'string', format: 'date-time' },
  },
} as const;
export type UsageLimit = FromSchema<typeof usageLimitSchema>;

const statusProperties = {
  LimitID: { type: 'string', pattern: LIMIT_ID_PATTERN },
  Meter: { type: 'string', pattern: METER_PATTERN },
  Used: { ...amount, description: 'The usage the limit counts in the period: what a summary of the meter, filter and period answers' },
  Remaining: { ...amount, description: 'Amount − Used, never below 0' },
  Amount: { type: 'number', exclusiveMinimum: 0 },
  PeriodStart: { ...unixSeconds, description: 'Unix seconds of the first instant of the current period in the limit’s zone' },
  ResetsAt: { ...unixSeconds, description: 'Unix seconds of the first instant of the next period' },
  Allowed: { type: 'boolean', description: 'Used < Amount' },
  Thresholds: {
    type: 'array',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['Percent', 'Crossed'],
      properties: {
        Percent: { type: 'number', exclusiveMinimum: 0 },
        Crossed: { type: 'boolean', description: 'Used ≥ Percent % of Amount' },
      },
    },
  },
} as const;

/** GET /api/v2/usage/limits/{LimitID}/status */
export const usageLimitStatusSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['LimitID', 'Meter', 'Used', 'Remaining', 'Amount', 'PeriodStart', 'ResetsAt', 'Allowed', 'Thresholds'],
  properties: statusProperties,
} as const;
export type UsageLimitStatus = FromSchema<typeof usageLimitStatusSchema>;

/** The `data` of a usage.threshold.crossed or .resolved event: the status then, the threshold and the limit's Period. */
export const thresholdEventDataSchema = {
  type: 'object',
  additionalProperties: false,
  required: [...usageLimitStatusSchema.required, 'Threshold', 'Period'],
  properties: {
    ...statusProperties,
    Threshold: { type: 'number', exclusiveMinimum: 0, description: 'The percentage crossed (or gone back under)' },
    Period: { type: 'string', enum: LIMIT_PERIODS },
  },
} as const;
export type ThresholdEventData = FromSchema<typeof thresholdEventDataSchema>;
