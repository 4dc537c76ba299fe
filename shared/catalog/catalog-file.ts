import type { FromSchema } from 'json-schema-to-ts';
import { isoDate } from '../core/day-schemas';
import { MAX_CAPACITY } from './constants';
import {
  activityIdSchema,
  availabilityTypeSchema,
  capacitySchema as capacity,
  moneySchema,
  openingHoursSchema,
  questionTypeSchema,
  timeSchema,
  unitSchema,
} from './schemas';

export const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;

/** A schedule may span at most this many days; longer ones are split or re-imported later. */
export const MAX_SCHEDULE_DAYS = 366;

/** The highest price per participant in minor units: times the largest party, a booking's TotalPrice is still an exact integer (under 2^53). */
const MAX_PRICE_AMOUNT = 100_000_000_000;
const priceSchema = {
  ...moneySchema,
  properties: {
    ...moneySchema.properties,
    Amount: {
      ...moneySchema.properties.Amount,
      maximum: MAX_PRICE_AMOUNT,
      errorMessage: `must be a whole number of minor units (cents) from 0 to ${MAX_PRICE_AMOUNT}`,
    },
  },
} as const;

/** A unit as a catalogue names it: its price within the same bound. */
const catalogUnitSchema = {
  ...unitSchema,
  properties: { ...unitSchema.properties, Price: { ...priceSchema, description: unitSchema.properties.Price.description } },
} as const;

const catalogQuestionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['QuestionID', 'Text', 'Type', 'Required'],
  properties: {
    QuestionID: { type: 'string', pattern: '^q_[A-Za-z0-9]{1,64}$', errorMessage: "must be 'q_' followed by letters or digits" },
    Text: { type: 'string', minLength: 1, maxLength: 1000 },
    Type: questionTypeSchema,
    Required: { type: 'boolean' },
    Options: { type: 'array', minItems: 2, maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 200 } },
    AcceptedFileTypes: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[a-z]+/[a-z0-9.+*-]+$' } },
    MaxFileSizeBytes: { type: 'integer', minimum: 1 },
  },
} as const;

/** The catalogue file an operator imports: products with their questions and timeslots. */
export const catalogFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Products'],
  properties: {
    Products: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['ProductID', 'ActivityID', 'Name', 'DurationMinutes', 'MaxParticipantsPerBooking', 'PricePerParticipant'],
        properties: {
          ProductID: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, errorMessage: 'must be a positive integer' },
          ActivityID: activityIdSchema,
          Name: { type: 'string', minLength: 1, maxLength: 200 },
          Description: { type: 'string', maxLength: 5000 },
          Visible: { type: 'boolean' },
          DurationMinutes: { type: 'integer', minimum: 1, maximum: 10_080 },
          MaxParticipantsPerBooking: { type: 'integer', minimum: 1, maximum: MAX_CAPACITY },
          PricePerParticipant: priceSchema,
          AvailabilityType: availabilityTypeSchema,
          Units: { type: 'array', minItems: 1, maxItems: 20, items: catalogUnitSchema },
          Questions: { type: 'array', maxItems: 100, items: catalogQuestionSchema },
          // Start-time products give Times (Timeslots: Time); day tickets give OpeningHours instead (catalog-rules.ts, one-off-timeslots.ts).
          Schedules: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['From', 'To', 'Weekdays', 'Capacity'],
              properties: {
                From: isoDate,
                To: isoDate,
                Weekdays: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: WEEKDAYS } },
                Times: { type: 'array', minItems: 1, uniqueItems: true, items: timeSchema },
                OpeningHours: openingHoursSchema,
                Capacity: capacity,
              },
            },
          },
          Timeslots: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['Date', 'Capacity'],
              properties: { Date: isoDate, Time: timeSchema, OpeningHours: openingHoursSchema, Capacity: capacity },
            },
          },
        },
      },
    },
  },
} as const;
export type CatalogFile = FromSchema<typeof catalogFileSchema>;
export type CatalogProduct = CatalogFile['Products'][number];
