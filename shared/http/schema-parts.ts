import { ACTIVITY_ID_PATTERN } from '../catalog/model';
import { SUPPORTED_DAYS } from '../core/calendar';

/** Schema pieces that several endpoints' schemas are built from. */

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

export const activityIdPath = {
  type: 'object',
  required: ['ActivityID'],
  properties: {
    ActivityID: {
      type: 'string',
      pattern: ACTIVITY_ID_PATTERN,
      errorMessage: "must be 's_' followed by 1 to 64 letters or digits",
    },
  },
} as const;

export interface ActivityPath {
  ActivityID: string;
}
