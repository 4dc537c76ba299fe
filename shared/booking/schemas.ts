import type { FromSchema } from 'json-schema-to-ts';
import { ACTIVITY_ID_PATTERN, ACTIVITY_ID_RULE, TIME_PATTERN, UNIT_ID_PATTERN } from '../catalog/constants';
import { AVAILABILITY_STATUSES } from '../catalog/model';
import { activityIdSchema, moneySchema, startsAtSchema, timeSchema } from '../catalog/schemas';
import { dayRangeQuery, isoDate } from '../core/day-schemas';
import {
  BOOKING_STATUSES,
  CANCELLATION_REASON,
  CHANNELS,
  E164_PATTERN,
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  HOLD_MINUTES,
  MAX_PARTICIPANTS,
  MAX_PAGE_SIZE,
  NAME_MAX_LENGTH,
  REFERENCE_ALPHABET,
  REFERENCE_LENGTH,
  REFERENCE_PATTERN,
  VISIBLE_TEXT_PATTERN,
} from './constants';

/**
 * Bookings on the wire, each schema written once: requests are validated
 * with them (`errorMessage`), the OpenAPI document shows them
 * (`description`), and the TypeScript types come from them (`FromSchema`).
 *
 * The fields of a booking request are shared by the partner endpoint's body
 * and the operator's own booking records. ActivityID is checked for type
 * here and for format by the domain, because a malformed ActivityID is a 400
 * while a missing or non-string one is a 422.
 */

const name = {
  type: 'string',
  minLength: 1,
  maxLength: NAME_MAX_LENGTH,
  pattern: VISIBLE_TEXT_PATTERN,
  errorMessage: `must be 1 to ${NAME_MAX_LENGTH} characters, not all blank, without control characters`,
} as const;

/**
 * A booking's customer: what the operator's lists, manifest and exports show.
 * Its rules are the constants it is written on, which the customer derived
 * from an OCTo contact is held to as well (contacts.ts).
 */
export const customerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['FirstName', 'LastName', 'Email'],
  properties: {
    FirstName: name,
    LastName: name,
    Email: {
      type: 'string',
      maxLength: EMAIL_MAX_LENGTH,
      pattern: EMAIL_PATTERN,
      errorMessage: 'must be an email address such as ana@example.com',
    },
    Phone: { type: 'string', pattern: E164_PATTERN, errorMessage: 'must be in E.164 format, such as +351912345678' },
  },
} as const;
export type Customer = FromSchema<typeof customerSchema>;

export const cancellationReasonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: CANCELLATION_REASON.maxLength,
  pattern: VISIBLE_TEXT_PATTERN,
  errorMessage: CANCELLATION_REASON.rule,
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

/** A party by unit (ticket type): each of the activity's units at most once, with how many of it. */
export const unitsRequestSchema = {
  type: 'array',
  minItems: 1,
  maxItems: 20,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['UnitID', 'Quantity'],
    properties: {
      UnitID: { type: 'string', pattern: UNIT_ID_PATTERN, errorMessage: 'must be a UnitID of the activity' },
      Quantity: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_PARTICIPANTS,
        errorMessage: `must be a whole number from 1 to ${MAX_PARTICIPANTS}`,
      },
    },
  },
} as const;

export const bookingRequestProperties = {
  ActivityID: { type: 'string', errorMessage: ACTIVITY_ID_RULE },
  Date: isoDate,
  Time: timeSchema,
  Participants: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_PARTICIPANTS,
    errorMessage: `must be a whole number from 1 to ${MAX_PARTICIPANTS}`,
  },
  Units: unitsRequestSchema,
  Customer: customerSchema,
  PaymentReference: { type: 'string', minLength: 1, maxLength: 200, errorMessage: 'must be 1 to 200 characters' },
  Answers: answersSchema,
} as const;

export type Answer = FromSchema<typeof answersSchema.items>;

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
/** What a partner asks for; the operator's own bookings take the same fields. */
export type BookingRequest = FromSchema<typeof partnerBookingBody>;

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
/** What a confirmation may add to its hold (each replaces what the hold had). */
export type ConfirmationRequest = FromSchema<typeof confirmationBody>;

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

/** A booking the operator records itself (admin CLI): an `online` sale of its own shop or a `pos` sale at the till. */
export const operatorBookingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Channel', ...bookingRequestRequired, 'Customer'],
  properties: {
    Channel: { type: 'string', enum: ['online', 'pos'], errorMessage: "must be 'online' or 'pos'" },
    ...bookingRequestProperties,
  },
} as const;
export type OperatorBookingInput = FromSchema<typeof operatorBookingSchema>;

/** POST /api/v2/bookings/{BookingReference}/cancel */
export const operatorCancellationBody = {
  type: 'object',
  additionalProperties: false,
  required: ['Reason'],
  properties: { Reason: cancellationReasonSchema },
} as const;

/** GET /api/v2/bookings: either the list by creation day (from, to, channel, limit, cursor) or the manifest of a timeslot day (date, activity). */
export const bookingsQuery = {
  type: 'object',
  properties: {
    ...dayRangeQuery.properties,
    channel: { type: 'string', enum: CHANNELS, errorMessage: `must be one of ${CHANNELS.join(', ')}` },
    limit: {
      type: 'string',
      pattern: '^[1-9][0-9]{0,3}$',
      errorMessage: `must be a whole number from 1 to ${MAX_PAGE_SIZE}`,
    },
    cursor: {
      type: 'string',
      maxLength: 200,
      pattern: '^[A-Za-z0-9_-]+$',
      errorMessage: 'must be a NextCursor this list returned for the same from, to and channel',
    },
    date: { ...isoDate, description: "Manifest: the timeslots' day, in the operator's time zone" },
    activity: activityIdSchema,
  },
} as const;
export type BookingsQuery = FromSchema<typeof bookingsQuery>;

const date = { type: 'string', format: 'date', description: 'YYYY-MM-DD' } as const;
const time = { type: 'string', pattern: TIME_PATTERN, description: 'HH:MM (24-hour), local to the operator' } as const;
const count = { type: 'integer', minimum: 0 } as const;
const activityId = { type: 'string', pattern: ACTIVITY_ID_PATTERN } as const;
const instant = { type: 'string', format: 'date-time', description: 'ISO 8601 UTC instant' } as const;

/** The booking record every booking endpoint answers with. */
export const bookingSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'BookingReference',
    'Status',
    'Channel',
    'ActivityID',
    'ProductID',
    'ActivityName',
    'Date',
    'Time',
    'StartsAt',
    'Participants',
    'TotalPrice',
    'WaiverStatus',
    'CreatedAt',
  ],
  properties: {
    BookingReference: {
      type: 'string',
      pattern: `^[${REFERENCE_ALPHABET}]{${REFERENCE_LENGTH}}$`,
      description: `${REFERENCE_LENGTH} characters from ${REFERENCE_ALPHABET}`,
    },
    Status: {
      type: 'string',
      enum: BOOKING_STATUSES,
      description: 'ON_HOLD → CONFIRMED → CANCELLED; ON_HOLD → CANCELLED; ON_HOLD → EXPIRED. ON_HOLD and CONFIRMED take places.',
    },
    Channel: {
      type: 'string',
      enum: CHANNELS,
      description: "ota (partner API), online (the operator's own shop), pos (point of sale)",
    },
    PartnerKeyID: { type: 'string', description: 'ota only: the ID of the API key that made the booking' },
    PaymentReference: { type: 'string', description: 'When given' },
    ActivityID: activityId,
    ProductID: { type: 'integer', minimum: 1 },
    ActivityName: { type: 'string' },
    Date: date,
    Time: time,
    StartsAt: startsAtSchema,
    Participants: { type: 'integer', minimum: 1, description: 'Places the booking takes (with Units: their pax)' },
    Units: {
      type: 'array',
      description: 'Bookings made by unit only: each unit booked, how many, and the price of one at booking time',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['UnitID', 'Quantity', 'UnitPrice'],
        properties: { UnitID: { type: 'string' }, Quantity: { type: 'integer', minimum: 1 }, UnitPrice: moneySchema },
      },
    },
    TotalPrice: moneySchema,
    Customer: { ...customerSchema, description: 'Absent only on a hold made without one' },
    WaiverStatus: {
      type: 'string',
      enum: ['COMPLETE', 'PENDING'],
      description: 'COMPLETE when answers were given or nothing is required; PENDING otherwise',
    },
    Answers: answersSchema,
    CreatedAt: instant,
    HoldExpiresAt: { ...instant, description: 'Holds: when the places are given back unless confirmed before' },
    ConfirmedAt: { ...instant, description: 'When a hold was confirmed' },
    ExpiredAt: { ...instant, description: 'When an unconfirmed hold expired' },
    CancelledAt: { ...instant, description: 'When cancelled' },
    CancelledBy: { type: 'string', enum: ['partner', 'operator'], description: 'Who cancelled' },
    CancellationReason: {
      type: 'string',
      description: 'The reason given with the cancellation: the operator’s, or the partner’s (through OCTo)',
    },
    ResellerReference: { type: 'string', description: 'OCTo bookings: the reseller’s own reference, when it gave one' },
    ErasedAt: {
      ...instant,
      description:
        'When its personal data was erased (by the operator, or after the retention period): Customer, Answers and an OCTo contact and notes are gone; what the accounts need stays',
    },
  },
} as const;
/** The public form of a booking, as every endpoint returns it. */
export type Booking = FromSchema<typeof bookingSchema>;
export type WaiverStatus = Booking['WaiverStatus'];
export type CancelledBy = NonNullable<Booking['CancelledBy']>;

/**
 * The contact of a booking made through OCTo, as the partner gave it
 * (every field optional). When it names a first and last name and a valid
 * email, the booking's Customer is derived from it, so the operator's lists
 * show the name.
 */
export const contactSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    FullName: { type: 'string' },
    FirstName: { type: 'string' },
    LastName: { type: 'string' },
    EmailAddress: { type: 'string' },
    PhoneNumber: { type: 'string' },
    Country: { type: 'string' },
    PostalCode: { type: 'string' },
    Locales: { type: 'array', items: { type: 'string' } },
    Notes: { type: 'string' },
  },
} as const;
export type Contact = FromSchema<typeof contactSchema>;

export const bookingListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Bookings', 'NextCursor'],
  properties: {
    Bookings: { type: 'array', items: bookingSchema, description: 'Newest first' },
    NextCursor: { type: ['string', 'null'], description: "The next page's `cursor`; null when the list ends" },
  },
} as const;
export type BookingList = FromSchema<typeof bookingListSchema>;

export const manifestTimeslotSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'ActivityID',
    'ActivityName',
    'Time',
    'StartsAt',
    'Capacity',
    'Vacancies',
    'Status',
    'Closed',
    'Participants',
    'HeldParticipants',
    'Bookings',
  ],
  properties: {
    ActivityID: activityId,
    ActivityName: { type: 'string' },
    Time: time,
    StartsAt: startsAtSchema,
    Capacity: { ...count, description: 'The places the timeslot has' },
    Vacancies: { ...count, description: 'The places left' },
    Status: { type: 'string', enum: AVAILABILITY_STATUSES, description: 'As every channel shows it' },
    Closed: { type: 'boolean', description: 'Closed by the operator: sold on no channel, its bookings kept' },
    ClosedReason: { type: 'string', description: 'While closed, when a reason was given' },
    ClosedBy: { type: 'string', description: 'While closed: the ID of the API key that closed it, or `admin` (the admin CLI)' },
    ClosedAt: { ...instant, description: 'While closed: since when' },
    Participants: { ...count, description: "Places the timeslot's held and confirmed bookings take" },
    HeldParticipants: { ...count, description: 'Of those, the places only held' },
    Bookings: { type: 'array', items: bookingSchema, description: "By the customer's last name, then first name" },
  },
} as const;
export type ManifestTimeslot = FromSchema<typeof manifestTimeslotSchema>;

export const manifestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Date', 'Participants', 'Timeslots'],
  properties: {
    Date: date,
    Participants: { ...count, description: 'Places taken over the whole day' },
    Timeslots: {
      type: 'array',
      items: manifestTimeslotSchema,
      description: 'Every timeslot of the day (those nobody booked too), by start time, then activity name',
    },
  },
} as const;
export type Manifest = FromSchema<typeof manifestSchema>;
