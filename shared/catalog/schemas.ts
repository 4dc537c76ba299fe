import { ACTIVITY_ID_PATTERN, QUESTION_TYPES, TIME_PATTERN } from './model';

/**
 * JSON Schema pieces of the catalogue, each written once: what requests
 * validate with (`errorMessage`) and what the OpenAPI document shows
 * (`description`) sit on the same object.
 */

export const ACTIVITY_ID_RULE = "must be 's_' followed by 1 to 64 letters or digits";

export const activityIdSchema = { type: 'string', pattern: ACTIVITY_ID_PATTERN, errorMessage: ACTIVITY_ID_RULE } as const;

export const activityIdPath = {
  type: 'object',
  required: ['ActivityID'],
  properties: { ActivityID: activityIdSchema },
} as const;

export interface ActivityPath {
  ActivityID: string;
}

export const timeSchema = { type: 'string', pattern: TIME_PATTERN, errorMessage: 'must be a time in HH:MM (24-hour) format' } as const;

export const moneySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Amount', 'Currency'],
  properties: {
    Amount: {
      type: 'integer',
      minimum: 0,
      description: 'Minor units (cents)',
      errorMessage: 'must be a whole number of minor units (cents)',
    },
    Currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code', errorMessage: 'must be an ISO 4217 code such as EUR' },
  },
} as const;

export const questionTypeSchema = {
  type: 'string',
  enum: [...QUESTION_TYPES],
  errorMessage: `must be one of ${QUESTION_TYPES.join(', ')}`,
} as const;
