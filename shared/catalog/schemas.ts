import type { FromSchema } from 'json-schema-to-ts';
import { isoDate } from '../core/day-schemas';
import {
  ACTIVITY_ID_PATTERN,
  ACTIVITY_ID_RULE,
  AVAILABILITY_TYPES,
  MAX_CAPACITY,
  QUESTION_TYPES,
  TIME_PATTERN,
  UNIT_ID_PATTERN,
  UNIT_TYPES,
} from './constants';

/**
 * The catalogue on the wire, each schema written once: what requests are
 * validated with (`errorMessage`), what the OpenAPI document shows
 * (`description`) and, through `FromSchema`, the TypeScript types, all from
 * the same objects.
 */

export const activityIdSchema = { type: 'string', pattern: ACTIVITY_ID_PATTERN, errorMessage: ACTIVITY_ID_RULE } as const;

export const activityIdPath = {
  type: 'object',
  required: ['ActivityID'],
  properties: { ActivityID: activityIdSchema },
} as const;

/** A timeslot's capacity, as the catalogue file and the operator's changes give it. */
export const capacitySchema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_CAPACITY,
  errorMessage: `must be an integer from 1 to ${MAX_CAPACITY}`,
} as const;

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
export type Money = FromSchema<typeof moneySchema>;

/**
 * A unit (ticket type) of a product: what one of it costs, who may use it,
 * how many a booking may hold, and how many places it takes (a FAMILY unit
 * may take four). The catalogue file and the product record share it.
 */
export const unitSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['UnitID', 'Name', 'Type', 'Price'],
  properties: {
    UnitID: {
      type: 'string',
      pattern: UNIT_ID_PATTERN,
      description: 'Unique within the product',
      errorMessage: 'must be 1 to 64 lower-case letters, digits, _ or -',
    },
    Name: { type: 'string', minLength: 1, maxLength: 100, errorMessage: 'must be 1 to 100 characters' },
    Type: { type: 'string', enum: UNIT_TYPES, errorMessage: `must be one of ${UNIT_TYPES.join(', ')}` },
    Price: { ...moneySchema, description: 'Of one unit, in the currency of PricePerParticipant' },
    MinAge: { type: 'integer', minimum: 0, maximum: 120, description: 'Default 0', errorMessage: 'must be an age from 0 to 120' },
    MaxAge: { type: 'integer', minimum: 0, maximum: 120, description: 'Default 99', errorMessage: 'must be an age from 0 to 120' },
    MinQuantity: {
      type: 'integer',
      minimum: 1,
      maximum: 10_000,
      description: 'A booking that holds this unit holds at least this many',
      errorMessage: 'must be a whole number from 1 to 10000',
    },
    MaxQuantity: {
      type: 'integer',
      minimum: 1,
      maximum: 10_000,
      description: 'A booking holds at most this many of this unit',
      errorMessage: 'must be a whole number from 1 to 10000',
    },
    PaxCount: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      description: 'Places one unit takes; default 1',
      errorMessage: 'must be a whole number from 1 to 100',
    },
    AccompaniedBy: {
      type: 'array',
      maxItems: 20,
      uniqueItems: true,
      items: { type: 'string', pattern: UNIT_ID_PATTERN },
      description: 'Other units of the product, one of which a booking with this unit must hold',
      errorMessage: 'must be a list of UnitIDs of the product',
    },
  },
} as const;
export type Unit = FromSchema<typeof unitSchema>;

/** A day ticket's opening hours: 1 to 4 ranges of `HH:MM`, ascending, each From before its To. */
export const openingHoursSchema = {
  type: 'array',
  minItems: 1,
  maxItems: 4,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['From', 'To'],
    properties: {
      From: { type: 'string', pattern: TIME_PATTERN, errorMessage: 'must be a time in HH:MM (24-hour) format' },
      To: { type: 'string', pattern: TIME_PATTERN, errorMessage: 'must be a time in HH:MM (24-hour) format' },
    },
  },
  description: "Day tickets: when the day's visits may begin and end, local time",
} as const;
export type OpeningHours = FromSchema<typeof openingHoursSchema>;

export const availabilityTypeSchema = {
  type: 'string',
  enum: AVAILABILITY_TYPES,
  errorMessage: `must be one of ${AVAILABILITY_TYPES.join(', ')}`,
} as const;

export const questionTypeSchema = {
  type: 'string',
  enum: QUESTION_TYPES,
  errorMessage: `must be one of ${QUESTION_TYPES.join(', ')}`,
} as const;

/** GET .../products: `name` filters by a case-insensitive partial match. */
export const listProductsQuery = {
  type: 'object',
  properties: { name: { type: 'string', maxLength: 200, errorMessage: 'must be at most 200 characters' } },
} as const;

/** GET .../resolve-product: exactly one of the two (checked by the domain, a 400). */
export const resolveProductQuery = {
  type: 'object',
  properties: {
    ID: { type: 'string', pattern: '^[1-9][0-9]{0,14}$', errorMessage: 'must be a positive integer' },
    Name: { type: 'string', minLength: 1, maxLength: 200, errorMessage: 'must be 1 to 200 characters' },
  },
} as const;
export type ResolveQuery = FromSchema<typeof resolveProductQuery>;

const date = { type: 'string', format: 'date', description: 'YYYY-MM-DD' } as const;
const time = { type: 'string', pattern: TIME_PATTERN, description: 'HH:MM (24-hour), local to the operator' } as const;
const count = { type: 'integer', minimum: 0 } as const;
const activityId = { type: 'string', pattern: ACTIVITY_ID_PATTERN } as const;
const productId = { type: 'integer', minimum: 1 } as const;
/** Availability lists leave sold-out dates and timeslots out, so SOLD_OUT never appears in them. */
const listedStatus = {
  type: 'string',
  enum: ['AVAILABLE', 'LIMITED'],
  description: 'LIMITED when at most a fifth of the capacity is left',
} as const;
export const startsAtSchema = {
  type: 'string',
  format: 'date-time',
  description: 'The same moment as ISO 8601 with the UTC offset in force then (a time the clocks repeat is its first occurrence)',
} as const;

export const productSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'ProductID',
    'ActivityID',
    'Name',
    'Description',
    'DurationMinutes',
    'MaxParticipantsPerBooking',
    'PricePerParticipant',
    'TimeZone',
  ],
  properties: {
    ProductID: { ...productId, description: "The operator's numeric product ID; what resolve-product's `ID` takes" },
    ActivityID: { ...activityId, description: 'What availability, questions and bookings take' },
    Name: { type: 'string', description: 'Unique per operator (case-insensitive)' },
    Description: { type: 'string' },
    DurationMinutes: { type: 'integer', minimum: 1 },
    MaxParticipantsPerBooking: { type: 'integer', minimum: 1, description: 'The largest party one booking may hold' },
    PricePerParticipant: moneySchema,
    TimeZone: { type: 'string', description: "The operator's IANA time zone; every Date and Time of the product is local to it" },
    AvailabilityType: {
      type: 'string',
      const: 'OPENING_HOURS',
      description: 'Day tickets only: one timeslot a day at `00:00`, sold until closing (absent: start times)',
    },
    Units: {
      type: 'array',
      items: unitSchema,
      description:
        'The units (ticket types) the catalogue names, when it names any; a booking may name them in `Units`. Without them a participant is an adult at PricePerParticipant',
    },
  },
} as const;
export type Product = FromSchema<typeof productSchema>;

/** GET .../availability/{ActivityID}/dates */
export const availableDatesQuery = {
  type: 'object',
  required: ['StartDate', 'EndDate'],
  properties: { StartDate: isoDate, EndDate: isoDate },
} as const;

export const availableDateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Date', 'Status', 'Vacancies', 'Capacity', 'AvailableTimeslots'],
  properties: {
    Date: date,
    Status: listedStatus,
    Vacancies: { ...count, description: "Free places summed over the date's bookable timeslots" },
    Capacity: { ...count, description: 'Capacity summed over the same timeslots' },
    AvailableTimeslots: { type: 'integer', minimum: 1, description: "How many of the date's timeslots still have room" },
  },
} as const;
export type AvailableDate = FromSchema<typeof availableDateSchema>;

/** GET .../availability/{ActivityID}/timeslots */
export const availableTimeslotsQuery = {
  type: 'object',
  required: ['Date'],
  properties: { Date: isoDate },
} as const;

export const availableTimeslotSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Date', 'Time', 'StartsAt', 'Status', 'Vacancies', 'Capacity'],
  properties: {
    Date: date,
    Time: { ...time, description: "HH:MM, local to the product's TimeZone; what a booking's Time takes" },
    StartsAt: startsAtSchema,
    Status: listedStatus,
    Vacancies: { type: 'integer', minimum: 1 },
    Capacity: { type: 'integer', minimum: 1 },
    OpeningHours: openingHoursSchema,
  },
} as const;
export type AvailableTimeslot = FromSchema<typeof availableTimeslotSchema>;

const stringList = { type: 'array', items: { type: 'string' } } as const;

export const questionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['QuestionID', 'Text', 'Type', 'Required'],
  properties: {
    QuestionID: { type: 'string', description: 'Unique within the activity' },
    Text: { type: 'string' },
    Type: questionTypeSchema,
    Required: { type: 'boolean', description: 'Must be answered before the booking is complete' },
    Options: { ...stringList, description: 'SINGLE_CHOICE only: the choices' },
    AcceptedFileTypes: { ...stringList, description: 'FILE_UPLOAD only: accepted MIME types' },
    MaxFileSizeBytes: { type: 'integer', minimum: 1, description: 'FILE_UPLOAD only: the largest file accepted' },
  },
} as const;
export type Question = FromSchema<typeof questionSchema>;

export const activityQuestionsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Activity', 'Questions'],
  properties: {
    Activity: {
      type: 'object',
      additionalProperties: false,
      required: ['ActivityID', 'ProductID', 'Name'],
      properties: { ActivityID: activityId, ProductID: productId, Name: { type: 'string' } },
    },
    Questions: { type: 'array', items: questionSchema },
  },
} as const;
export type ActivityQuestions = FromSchema<typeof activityQuestionsSchema>;
