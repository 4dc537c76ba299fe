import type { FromSchema } from 'json-schema-to-ts';
import { activityIdSchema, capacitySchema, openingHoursSchema, startsAtSchema, timeSchema } from '../catalog/schemas';
import { MAX_CAPACITY, TIME_PATTERN } from '../catalog/constants';
import { AVAILABILITY_STATUSES } from '../catalog/model';
import { isoDate } from '../core/day-schemas';
import { cancellationReasonSchema } from './schemas';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH } from './constants';

/**
 * The operator's timeslots on the wire: its view of one activity's day and
 * the changes it makes to it (capacity, closing and reopening, one-off
 * timeslots, cancelling a timeslot with its bookings).
 */

/** The most timeslots one request adds. */
export const MAX_ADDED_TIMESLOTS = 25;

/** GET /api/v2/timeslots/{ActivityID}?date= */
export const timeslotDayQuery = {
  type: 'object',
  required: ['date'],
  properties: { date: { ...isoDate, description: "The timeslots' day, in the operator's time zone" } },
} as const;

export const timeslotActivityPath = {
  type: 'object',
  required: ['ActivityID'],
  properties: { ActivityID: activityIdSchema },
} as const;

export const timeslotDatePath = {
  type: 'object',
  required: ['ActivityID', 'Date'],
  properties: { ActivityID: activityIdSchema, Date: isoDate },
} as const;

export const timeslotPath = {
  type: 'object',
  required: ['ActivityID', 'Date', 'Time'],
  properties: { ActivityID: activityIdSchema, Date: isoDate, Time: timeSchema },
} as const;

const closedField = {
  type: 'boolean',
  errorMessage: 'must be true (close: nothing more is sold) or false (reopen)',
} as const;

const closeReason = { ...cancellationReasonSchema, description: 'Why it is closed, for the operator’s lists (with `Closed: true` only)' };

/** PATCH /api/v2/timeslots/{ActivityID}/{Date}/{Time}: a capacity, closed or reopened, or both. */
export const timeslotChangeBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    Capacity: { ...capacitySchema, description: 'At least the places already held and booked' },
    Closed: closedField,
    Reason: closeReason,
  },
} as const;
export type TimeslotChange = FromSchema<typeof timeslotChangeBody>;

/** PATCH /api/v2/timeslots/{ActivityID}/{Date}: every timeslot of the date closed or reopened. */
export const dateChangeBody = {
  type: 'object',
  additionalProperties: false,
  required: ['Closed'],
  properties: { Closed: closedField, Reason: closeReason },
} as const;
export type DateChange = FromSchema<typeof dateChangeBody>;

/** POST /api/v2/timeslots/{ActivityID}: one-off timeslots, as a catalogue file's `Timeslots` give them. */
export const addTimeslotsBody = {
  type: 'object',
  additionalProperties: false,
  required: ['Timeslots'],
  properties: {
    Timeslots: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_ADDED_TIMESLOTS,
      errorMessage: `must be a list of 1 to ${MAX_ADDED_TIMESLOTS} timeslots`,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['Date', 'Capacity'],
        properties: {
          Date: isoDate,
          Time: { ...timeSchema, description: 'Start-time products: the start, local to the operator' },
          OpeningHours: openingHoursSchema,
          Capacity: capacitySchema,
        },
      },
    },
  },
} as const;
export type AddTimeslots = FromSchema<typeof addTimeslotsBody>;

/** POST /api/v2/timeslots/{ActivityID}/{Date}/{Time}/cancel */
export const cancelTimeslotBody = {
  type: 'object',
  additionalProperties: false,
  required: ['Reason'],
  properties: { Reason: { ...cancellationReasonSchema, description: 'Told to every partner whose booking is cancelled' } },
} as const;

const count = { type: 'integer', minimum: 0 } as const;
const instant = { type: 'string', format: 'date-time', description: 'ISO 8601 UTC instant' } as const;
const actor = { type: 'string', description: 'The ID of the API key that made the change, or `admin` for the admin CLI' } as const;

export const timeslotCancellationStateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Reason', 'By', 'StartedAt', 'Complete'],
  properties: {
    Reason: { type: 'string' },
    By: actor,
    StartedAt: instant,
    Complete: { type: 'boolean', description: 'False while bookings are still being cancelled (the service finishes within minutes)' },
    FinishedAt: { ...instant, description: 'When the last booking was cancelled' },
  },
} as const;

/** One timeslot as its operator sees it. */
export const operatorTimeslotSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ActivityID', 'Date', 'Time', 'StartsAt', 'Capacity', 'Booked', 'Held', 'Vacancies', 'Status', 'Closed'],
  properties: {
    ActivityID: { type: 'string' },
    Date: { type: 'string', format: 'date' },
    Time: { type: 'string', pattern: TIME_PATTERN, description: 'HH:MM, local to the operator; a day ticket’s day is 00:00' },
    StartsAt: startsAtSchema,
    OpeningHours: openingHoursSchema,
    Capacity: { type: 'integer', minimum: 1, maximum: MAX_CAPACITY },
    Booked: { ...count, description: 'Places of confirmed bookings' },
    Held: { ...count, description: 'Places of holds not yet confirmed' },
    Vacancies: { ...count, description: 'Places left: Capacity − Booked − Held (never below 0)' },
    Status: {
      type: 'string',
      enum: AVAILABILITY_STATUSES,
      description: 'As every channel shows it: CLOSED while closed, else by the places left',
    },
    Closed: { type: 'boolean', description: 'Closed by the operator: sold on no channel, its bookings kept' },
    ClosedReason: { type: 'string', description: 'While closed, when a reason was given' },
    ClosedBy: { ...actor, description: 'While closed: who closed it' },
    ClosedAt: { ...instant, description: 'While closed: when' },
    ReopenedBy: { ...actor, description: 'Who last reopened it' },
    ReopenedAt: { ...instant, description: 'When it was last reopened' },
    CapacityChangedBy: { ...actor, description: 'Who last changed its capacity (a catalogue import is not counted)' },
    CapacityChangedAt: { ...instant, description: 'When its capacity was last changed' },
    AddedBy: { ...actor, description: 'Who added it, when it was added one by one rather than imported' },
    AddedAt: { ...instant, description: 'When it was added' },
    Cancellation: { ...timeslotCancellationStateSchema, description: 'The last cancellation of the timeslot with its bookings' },
  },
} as const;
export type OperatorTimeslot = FromSchema<typeof operatorTimeslotSchema>;

export const timeslotCancellationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Timeslot', 'CancelledBookings'],
  properties: {
    Timeslot: operatorTimeslotSchema,
    CancelledBookings: {
      type: 'array',
      items: { type: 'string', pattern: `^[${REFERENCE_ALPHABET}]{${REFERENCE_LENGTH}}$` },
      description: 'The references of the bookings this cancellation cancelled, in order; as many as it cancelled',
    },
  },
} as const;
export type TimeslotCancellation = FromSchema<typeof timeslotCancellationSchema>;
