import type { FromSchema } from 'json-schema-to-ts';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, REFERENCE_PATTERN } from './constants';
import { ERASURE_PAGE } from './erasure';
import { bookingSchema } from './schemas';

/**
 * POST /api/v2/bookings/erasure: what it takes (one booking by reference, or
 * a customer by email, in the body so that no email is ever in a URL or an
 * access log) and what it answers.
 */
export const erasureBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    BookingReference: {
      type: 'string',
      pattern: REFERENCE_PATTERN,
      errorMessage: 'must be the 10-character reference returned when the booking was made',
      description: 'One booking',
    },
    Email: {
      type: 'string',
      maxLength: EMAIL_MAX_LENGTH,
      pattern: EMAIL_PATTERN,
      errorMessage: 'must be an email address such as ana@example.com',
      description: "Every booking of the customer with this email (its case does not matter), as its Customer's or an OCTo contact's",
    },
  },
} as const;

export const erasureQuery = {
  type: 'object',
  properties: {
    limit: {
      type: 'string',
      pattern: '^(100|[1-9][0-9]?)$',
      errorMessage: `must be a whole number from 1 to ${ERASURE_PAGE.max}`,
      description: `By email: the bookings erased by one request, at most (default ${ERASURE_PAGE.default})`,
    },
  },
} as const;

export const erasureSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Bookings', 'More'],
  properties: {
    Bookings: {
      type: 'array',
      items: bookingSchema,
      description: 'The bookings erased, as they now are (a booking found already erased too); none when nothing of the customer is kept',
    },
    More: {
      type: 'boolean',
      description: 'By email: more of the customer’s bookings are left to erase; send the same request again',
    },
  },
} as const;
export type Erasure = FromSchema<typeof erasureSchema>;
