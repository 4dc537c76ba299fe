import type { FromSchema } from 'json-schema-to-ts';
import { ACTIVITY_ID_PATTERN, TIME_PATTERN } from '../catalog/constants';
import { AVAILABILITY_STATUSES } from '../catalog/model';
import { startsAtSchema } from '../catalog/schemas';
import { DEFAULT_FEED_LIMIT, MAX_FEED_LIMIT } from './model';

/** What partners hear of availability, on the wire: the `availability.changed` event's data and the changes feed. */

export const availabilityChangeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ActivityID', 'Date', 'Time', 'StartsAt', 'Status', 'Vacancies', 'Capacity', 'ChangedAt', 'Sequence'],
  properties: {
    ActivityID: { type: 'string', pattern: ACTIVITY_ID_PATTERN },
    Date: { type: 'string', format: 'date', description: 'YYYY-MM-DD, local to the operator' },
    Time: { type: 'string', pattern: TIME_PATTERN, description: 'HH:MM (24-hour), local to the operator; a day ticket 00:00' },
    StartsAt: startsAtSchema,
    Status: { type: 'string', enum: AVAILABILITY_STATUSES, description: 'CLOSED: the operator closed it; SOLD_OUT: no place left' },
    Vacancies: { type: 'integer', minimum: 0, description: 'Places for sale now (0 while closed)' },
    Capacity: { type: 'integer', minimum: 0 },
    ChangedAt: { type: 'string', format: 'date-time', description: 'When the change was made (ISO 8601 UTC)' },
    Sequence: {
      type: 'integer',
      minimum: 1,
      description: 'Grows with every change of this timeslot: apply a change only when its Sequence is above the last you applied',
    },
  },
} as const;
export type AvailabilityChangeRecord = FromSchema<typeof availabilityChangeSchema>;

/** GET /api/v2/ota/marketplace/availability/changes */
export const availabilityChangesQuery = {
  type: 'object',
  properties: {
    since: {
      type: 'string',
      minLength: 1,
      maxLength: 400,
      errorMessage: 'must be the Cursor of an earlier answer',
    },
    limit: {
      type: 'string',
      pattern: '^[1-9][0-9]{0,3}$',
      errorMessage: `must be a whole number from 1 to ${MAX_FEED_LIMIT} (${DEFAULT_FEED_LIMIT} unless given)`,
    },
  },
} as const;

export const availabilityChangesSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Changes', 'Cursor', 'HasMore'],
  properties: {
    Changes: {
      type: 'array',
      items: availabilityChangeSchema,
      description: 'The latest state of each timeslot changed since the cursor, oldest change first',
    },
    Cursor: { type: 'string', description: 'Ask again with it as `since`: it is good for 7 days' },
    HasMore: { type: 'boolean', description: 'More changes wait: ask again with the Cursor at once' },
  },
} as const;
