import { isoDate } from '../core/day-schemas';
import { compileValidator } from '../core/validation';
import type { Question } from './model';
import { activityIdSchema, moneySchema, questionTypeSchema, timeSchema } from './schemas';

/** The catalogue file an operator imports: products with their questions and timeslots. */
export interface CatalogFile {
  Products: CatalogueProduct[];
}

export interface CatalogueProduct {
  ProductID: number;
  ActivityID: string;
  Name: string;
  Description?: string;
  Visible?: boolean;
  DurationMinutes: number;
  MaxParticipantsPerBooking: number;
  PricePerParticipant: { Amount: number; Currency: string };
  Questions?: Question[];
  /** Recurring timeslots: every listed weekday from From to To, at each of Times. */
  Schedules?: { From: string; To: string; Weekdays: Weekday[]; Times: string[]; Capacity: number }[];
  /** One-off timeslots. */
  Timeslots?: { Date: string; Time: string; Capacity: number }[];
}

export const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;
type Weekday = (typeof WEEKDAYS)[number];

/** A schedule may span at most this many days; longer ones are split or re-imported later. */
export const MAX_SCHEDULE_DAYS = 366;
const MAX_CAPACITY = 10_000;

const capacity = { type: 'integer', minimum: 1, maximum: MAX_CAPACITY, errorMessage: `must be an integer from 1 to ${MAX_CAPACITY}` };

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
};

const questionSchema = {
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
};

const catalogueSchema = {
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
          Questions: { type: 'array', maxItems: 100, items: questionSchema },
          Schedules: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['From', 'To', 'Weekdays', 'Times', 'Capacity'],
              properties: {
                From: isoDate,
                To: isoDate,
                Weekdays: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...WEEKDAYS] } },
                Times: { type: 'array', minItems: 1, uniqueItems: true, items: timeSchema },
                Capacity: capacity,
              },
            },
          },
          Timeslots: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['Date', 'Time', 'Capacity'],
              properties: { Date: isoDate, Time: timeSchema, Capacity: capacity },
            },
          },
        },
      },
    },
  },
};

export const validateCatalogFile = compileValidator<CatalogFile>(catalogueSchema, 'The catalogue');
