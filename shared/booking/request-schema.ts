import { isoDate } from '../core/day-schemas';
import { timeSchema } from '../catalog/schemas';
import { HOLD_MINUTES } from './model';
import { REFERENCE_PATTERN } from './reference';

/**
 * The fields of a booking request, shared by the partner endpoint's body
 * schema and the operator's own booking records. ActivityID is checked for
 * type here and for format by the domain, because a malformed ActivityID is
 * a 400 while a missing or non-string one is a 422.
 */

/** The largest party the schema lets through; the activity's own maximum is checked against the product. */
export const MAX_PARTICIPANTS = 10_000;

/** E.164: '+', a country code that does not start with 0, at most 15 digits in all. */
export const E164_PATTERN = '^\\+[1-9][0-9]{6,14}$';

const name = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  // Some visible text, and no control characters (they break the operator's exports and printed lists).
  pattern: '^(?=.*\\S)[^\\u0000-\\u001F\\u007F]+$',
  errorMessage: 'must be 1 to 100 characters, not all blank, without control characters',
};

export const customerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['FirstName', 'LastName', 'Email'],
  properties: {
    FirstName: name,
    LastName: name,
    Email: { type: 'string', maxLength: 254, format: 'email', errorMessage: 'must be an email address such as ana@example.com' },
    Phone: { type: 'string', pattern: E164_PATTERN, errorMessage: 'must be in E.164 format, such as +351912345678' },
  },
} as const;

export const answersSchema = {
  type: 'array',
  maxItems: 100,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['QuestionID', 'Value'],
    properties: {
      QuestionID: { type: 'string', minLength: 1, maxLength: 100, errorMessage: 'must be a QuestionID of the activity' },
      Value: { type: 'string', minLength: 1, maxLength: 2000, errorMessage: 'must be a string of 1 to 2000 characters' },
    },
  },
} as const;

export const bookingRequestProperties = {
  ActivityID: { type: 'string', errorMessage: "must be a string: 's_' followed by letters or digits" },
  Date: isoDate,
  Time: timeSchema,
  Participants: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_PARTICIPANTS,
    errorMessage: `must be a whole number from 1 to ${MAX_PARTICIPANTS}`,
  },
  Customer: customerSchema,
  PaymentReference: { type: 'string', minLength: 1, maxLength: 200, errorMessage: 'must be 1 to 200 characters' },
  Answers: answersSchema,
} as const;

/** Customer is required of every booking but a hold, which may leave it for the confirmation (checked by the domain). */
export const bookingRequestRequired = ['ActivityID', 'Date', 'Time', 'Participants'] as const;

export const holdSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ExpiresInMinutes: {
      type: 'integer',
      minimum: HOLD_MINUTES.min,
      maximum: HOLD_MINUTES.max,
      errorMessage: `must be a whole number of minutes from ${HOLD_MINUTES.min} to ${HOLD_MINUTES.max} (default ${HOLD_MINUTES.default})`,
    },
  },
} as const;

/** The partner's booking body: a booking, or with `Hold` a hold. */
export const partnerBookingBody = {
  type: 'object',
  additionalProperties: false,
  required: [...bookingRequestRequired],
  properties: { ...bookingRequestProperties, Hold: holdSchema },
} as const;

/** What a confirmation may complete; an empty object confirms the hold as it is. */
export const confirmationBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    Customer: customerSchema,
    PaymentReference: bookingRequestProperties.PaymentReference,
    Answers: answersSchema,
  },
} as const;

export const cancellationReasonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 500,
  pattern: '^(?=.*\\S)[^\\u0000-\\u001F\\u007F]+$',
  errorMessage: 'must be 1 to 500 characters, not all blank, without control characters',
} as const;

export const bookingReferencePath = {
  type: 'object',
  required: ['BookingReference'],
  properties: {
    BookingReference: {
      type: 'string',
      pattern: REFERENCE_PATTERN,
      errorMessage: 'must be the 10-character reference returned when the booking was made',
    },
  },
} as const;

export interface BookingReferencePath {
  BookingReference: string;
}
