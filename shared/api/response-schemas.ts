import { answersSchema, customerSchema } from '../booking/request-schema';
import { BOOKING_STATUSES, CHANNELS } from '../booking/model';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH } from '../booking/reference';
import { ACTIVITY_ID_PATTERN, TIME_PATTERN } from '../catalog/model';
import { moneySchema, questionTypeSchema } from '../catalog/schemas';
import { DIMENSION_KEY_PATTERN, MAX_DIMENSION_VALUE_LENGTH, MAX_DIMENSIONS, MAX_GROUP_BY, METER_PATTERN } from '../usage/model';

/**
 * JSON Schemas of what the API answers: the records inside `{ "data": ... }`
 * and the problem of every error. The OpenAPI document (openapi.ts)
 * publishes them, and the contract test validates real responses against
 * them, so a field added to a record without its schema fails the tests.
 * Objects are closed (`additionalProperties: false`) for the same reason;
 * problems are open, as RFC 7807 allows extension members. (Long because
 * every record of the API is here, each written once.)
 */

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
const startsAt = {
  type: 'string',
  format: 'date-time',
  description: 'The same moment as ISO 8601 with the UTC offset of that date',
} as const;

const Money = moneySchema;

const Product = {
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
    PricePerParticipant: Money,
    TimeZone: { type: 'string', description: "The operator's IANA time zone; every Date and Time of the product is local to it" },
  },
} as const;

const AvailableDate = {
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

const AvailableTimeslot = {
  type: 'object',
  additionalProperties: false,
  required: ['Date', 'Time', 'StartsAt', 'Status', 'Vacancies', 'Capacity'],
  properties: {
    Date: date,
    Time: { ...time, description: "HH:MM, local to the product's TimeZone; what a booking's Time takes" },
    StartsAt: startsAt,
    Status: listedStatus,
    Vacancies: { type: 'integer', minimum: 1 },
    Capacity: { type: 'integer', minimum: 1 },
  },
} as const;

const stringList = { type: 'array', items: { type: 'string' } } as const;

const Question = {
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

const ActivityQuestions = {
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
    Questions: { type: 'array', items: Question },
  },
} as const;

const instant = { type: 'string', format: 'date-time', description: 'ISO 8601 UTC instant' } as const;

const Booking = {
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
      enum: [...BOOKING_STATUSES],
      description: 'ON_HOLD → CONFIRMED → CANCELLED; ON_HOLD → CANCELLED; ON_HOLD → EXPIRED. ON_HOLD and CONFIRMED take places.',
    },
    Channel: {
      type: 'string',
      enum: [...CHANNELS],
      description: "ota (partner API), online (the operator's own shop), pos (point of sale)",
    },
    PartnerKeyID: { type: 'string', description: 'ota only: the ID of the API key that made the booking' },
    PaymentReference: { type: 'string', description: 'When given' },
    ActivityID: activityId,
    ProductID: productId,
    ActivityName: { type: 'string' },
    Date: date,
    Time: time,
    StartsAt: startsAt,
    Participants: { type: 'integer', minimum: 1 },
    TotalPrice: Money,
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
    CancellationReason: { type: 'string', description: "The operator's reason, when the operator cancelled" },
  },
} as const;

const ManifestTimeslot = {
  type: 'object',
  additionalProperties: false,
  required: ['ActivityID', 'ActivityName', 'Time', 'StartsAt', 'Participants', 'HeldParticipants', 'Bookings'],
  properties: {
    ActivityID: activityId,
    ActivityName: { type: 'string' },
    Time: time,
    StartsAt: startsAt,
    Participants: { ...count, description: "Places the timeslot's held and confirmed bookings take" },
    HeldParticipants: { ...count, description: 'Of those, the places only held' },
    Bookings: { type: 'array', items: Booking, description: "By the customer's last name, then first name" },
  },
} as const;

const Manifest = {
  type: 'object',
  additionalProperties: false,
  required: ['Date', 'Participants', 'Timeslots'],
  properties: {
    Date: date,
    Participants: { ...count, description: 'Places taken over the whole day' },
    Timeslots: { type: 'array', items: ManifestTimeslot, description: 'By start time, then activity name' },
  },
} as const;

const WebhookEndpoint = {
  type: 'object',
  additionalProperties: false,
  required: ['Url', 'CreatedAt'],
  properties: {
    Url: { type: 'string', description: 'Where deliveries are POSTed' },
    CreatedAt: instant,
  },
} as const;

const IssuedWebhookEndpoint = {
  type: 'object',
  additionalProperties: false,
  required: ['Url', 'CreatedAt', 'Secret'],
  properties: {
    ...WebhookEndpoint.properties,
    Secret: {
      type: 'string',
      pattern: '^whsec_[A-Za-z0-9+/]+=*$',
      description: 'The signing secret, shown only in this answer; verify deliveries with it (any Standard Webhooks library)',
    },
  },
} as const;

const BookingList = {
  type: 'object',
  additionalProperties: false,
  required: ['Bookings', 'NextCursor'],
  properties: {
    Bookings: { type: 'array', items: Booking, description: 'Newest first' },
    NextCursor: { type: ['string', 'null'], description: "The next page's `cursor`; null when the list ends" },
  },
} as const;

const UsageEntry = {
  type: 'object',
  additionalProperties: false,
  required: ['ID', 'Meter', 'Usage', 'OccurredAt'],
  properties: {
    ID: { type: 'integer', minimum: 0, description: 'Ordered by recording time' },
    Meter: { type: 'string', pattern: METER_PATTERN },
    Usage: { type: 'number', exclusiveMinimum: 0 },
    OccurredAt: { type: 'integer', minimum: 0, description: 'Unix seconds' },
    Dimensions: {
      type: 'object',
      maxProperties: MAX_DIMENSIONS,
      minProperties: 1,
      propertyNames: { pattern: DIMENSION_KEY_PATTERN },
      additionalProperties: { type: 'string', minLength: 1, maxLength: MAX_DIMENSION_VALUE_LENGTH },
      description: 'As sent, keys in code-point order; absent when the entry has none (`{}` is none)',
    },
  },
} as const;

const BatchEntry = {
  type: 'object',
  additionalProperties: false,
  required: ['ID', 'Meter', 'Usage', 'OccurredAt', 'Replayed'],
  properties: {
    ...UsageEntry.properties,
    Identifier: { type: 'string', description: 'As sent' },
    Replayed: {
      type: 'boolean',
      description:
        'True when the Identifier was seen before (in an earlier batch or earlier in this one): this is the original entry, not counted again',
    },
  },
} as const;

const UsageBatchResult = {
  type: 'object',
  additionalProperties: false,
  required: ['Entries'],
  properties: { Entries: { type: 'array', items: BatchEntry, description: 'One per entry sent, in the same order' } },
} as const;

const VoidedUsageEntry = {
  type: 'object',
  additionalProperties: false,
  required: ['ID', 'Meter', 'Usage', 'OccurredAt', 'VoidedAt'],
  properties: { ...UsageEntry.properties, VoidedAt: { type: 'integer', minimum: 0, description: 'Unix seconds of the (first) void' } },
} as const;

const seriesPoint = { Usage: { type: 'number', minimum: 0 }, Events: count } as const;

const UsageSummary = {
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
        TimeZone: { type: 'string', description: 'The zone used, in its canonical spelling' },
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
      items: {
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
          Hours: {
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
          Days: {
            type: 'array',
            description: 'granularity=day only: one point per day of the period',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['Date', 'Usage', 'Events'],
              properties: { Date: date, ...seriesPoint },
            },
          },
          Months: {
            type: 'array',
            description:
              'granularity=month only: one point per calendar month of the zone that the period touches; the first and last count only the days inside the period',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['Month', 'Usage', 'Events'],
              properties: { Month: { type: 'string', pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-MM' }, ...seriesPoint },
            },
          },
        },
      },
    },
  },
} as const;

const Problem = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'instance'],
  properties: {
    type: { type: 'string', description: '`<problem base URL>/<kind>`, e.g. /problems/validation' },
    title: { type: 'string', description: 'The status phrase' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string', description: 'Names the offending parameter or field' },
    instance: { type: 'string', description: 'The request path' },
    missingQuestions: { ...stringList, description: 'The required waiver questions a booking left unanswered' },
    errors: {
      type: 'array',
      description: 'A batch with invalid entries: every invalid field, by entry index',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['field', 'detail'],
        properties: {
          field: { type: 'string', description: 'e.g. Entries[3].Usage' },
          detail: { type: 'string', description: 'The rule it breaks' },
        },
      },
    },
  },
} as const;

/** Named so that the OpenAPI document lists each once, as a component, and refers to it everywhere else. */
export const responseSchemas = {
  Money,
  Product,
  AvailableDate,
  AvailableTimeslot,
  Question,
  ActivityQuestions,
  Customer: customerSchema,
  Answer: answersSchema.items,
  Booking,
  BookingList,
  ManifestTimeslot,
  Manifest,
  WebhookEndpoint,
  IssuedWebhookEndpoint,
  UsageEntry,
  UsageBatchResult,
  VoidedUsageEntry,
  UsageSummary,
  Problem,
} as const;

export type ResponseSchemaName = keyof typeof responseSchemas;
