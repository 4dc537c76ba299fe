import { REFERENCE_PATTERN } from './reference';

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
