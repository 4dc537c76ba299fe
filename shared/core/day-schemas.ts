import { SUPPORTED_DAYS } from './calendar';

/** JSON Schema pieces for calendar days, shared by every request that takes one. */

export const isoDate = {
  type: 'string',
  format: 'supported-day',
  errorMessage: `must be a real calendar date in YYYY-MM-DD format, from ${SUPPORTED_DAYS.first} to ${SUPPORTED_DAYS.last}`,
} as const;

/** The `from` and `to` days (both required, both included) of the operator-side range queries. */
export const dayRangeQuery = {
  required: ['from', 'to'],
  properties: { from: isoDate, to: isoDate },
} as const;
