import type { FromSchema } from 'json-schema-to-ts';
import {
  CANCELLATION_REASON,
  EMAIL_MAX_LENGTH,
  HOLD_MINUTES,
  NAME_MAX_LENGTH,
  NO_CONTROL_CHARACTERS_PATTERN,
  UUID_PATTERN,
} from '../../booking/constants';
import { isoDate } from '../../core/day-schemas';

/**
 * OCTo's requests on the wire (docs.octo.travel), each schema written once:
 * what the /octo routes validate and the OpenAPI document shows, and their
 * TypeScript types. OCTo ignores fields it does not know, so these schemas
 * leave other fields alone.
 */

const MAX_ID = 200;

/** An ID a client sends: any text; one that names nothing is an unknown ID (INVALID_*_ID), never a malformed request. */
const id = (what: string) =>
  ({ type: 'string', minLength: 1, maxLength: MAX_ID, errorMessage: `must be ${what} of 1 to ${MAX_ID} characters` }) as const;

const text = (maxLength: number) =>
  ({ type: ['string', 'null'], maxLength, errorMessage: `must be text of at most ${maxLength} characters, or null` }) as const;

/** One line of text: a name, an address, a number, as the operator's lists and exports show it. */
const line = (maxLength: number) =>
  ({
    type: ['string', 'null'],
    maxLength,
    pattern: NO_CONTROL_CHARACTERS_PATTERN,
    errorMessage: `must be text of at most ${maxLength} characters without control characters, or null`,
  }) as const;

const uuid = {
  type: 'string',
  maxLength: 36,
  pattern: UUID_PATTERN,
  errorMessage: 'must be a UUID (8-4-4-4-12 hexadecimal digits)',
} as const;

export const productPath = { type: 'object', required: ['productId'], properties: { productId: id('a product ID') } } as const;
export const bookingPath = { type: 'object', required: ['uuid'], properties: { uuid: id('the booking UUID') } } as const;

/**
 * A contact as a reseller sends it: every field optional; null clears a field
 * held before. The lines a customer is made of (names, email, phone) refuse
 * control characters, as the marketplace's Customer does: the booking's
 * Customer is derived from them (shared/booking/contacts.ts).
 */
export const contactBody = {
  type: 'object',
  properties: {
    fullName: line(200),
    firstName: line(NAME_MAX_LENGTH),
    lastName: line(NAME_MAX_LENGTH),
    emailAddress: line(EMAIL_MAX_LENGTH),
    phoneNumber: line(50),
    locales: {
      type: 'array',
      maxItems: 10,
      items: { type: 'string', maxLength: 35 },
      errorMessage: 'must be a list of at most 10 language tags',
    },
    postalCode: text(20),
    country: text(100),
    notes: text(2000),
  },
} as const;

const unitsFilter = {
  type: 'array',
  maxItems: 100,
  items: {
    type: 'object',
    required: ['id', 'quantity'],
    properties: { id: id('a unit ID'), quantity: { type: 'integer', minimum: 1, maximum: 10_000, errorMessage: 'must be 1 to 10000' } },
  },
  errorMessage: 'must be a list of { id, quantity }',
} as const;

const currency = { type: ['string', 'null'], maxLength: 3, errorMessage: 'must be an ISO 4217 code' } as const;
const expirationMinutes = {
  type: 'integer',
  minimum: 1,
  maximum: 10_080,
  errorMessage: `must be a whole number of minutes from ${HOLD_MINUTES.min} (holds last at most ${HOLD_MINUTES.max})`,
} as const;

export const calendarBody = {
  type: 'object',
  required: ['productId', 'optionId', 'localDateStart', 'localDateEnd'],
  properties: {
    productId: id('a product ID'),
    optionId: id('an option ID'),
    localDateStart: isoDate,
    localDateEnd: isoDate,
    units: unitsFilter,
    currency,
  },
} as const;
export type CalendarRequest = FromSchema<typeof calendarBody>;

/** Exactly one of `localDate`, `localDateStart` with `localDateEnd`, and `availabilityIds` (checked by the face). */
export const availabilityBody = {
  type: 'object',
  required: ['productId', 'optionId'],
  properties: {
    productId: id('a product ID'),
    optionId: id('an option ID'),
    localDate: isoDate,
    localDateStart: isoDate,
    localDateEnd: isoDate,
    availabilityIds: { type: 'array', minItems: 1, maxItems: 100, items: id('an availability ID'), errorMessage: 'must be 1 to 100 IDs' },
    units: unitsFilter,
    currency,
  },
} as const;
export type AvailabilityRequest = FromSchema<typeof availabilityBody>;

const unitItemsBody = {
  type: 'array',
  maxItems: 1000,
  items: {
    type: 'object',
    required: ['unitId'],
    properties: {
      unitId: id('a unit ID'),
      uuid,
      resellerReference: text(100),
      contact: contactBody,
    },
  },
  errorMessage: 'must be a list of at most 1000 unit items',
} as const;

export const reservationBody = {
  type: 'object',
  required: ['productId', 'optionId', 'availabilityId'],
  properties: {
    uuid,
    productId: id('a product ID'),
    optionId: id('an option ID'),
    availabilityId: id('an availability ID'),
    unitItems: unitItemsBody,
    expirationMinutes,
    notes: text(2000),
    resellerReference: text(100),
    contact: contactBody,
    currency,
  },
} as const;
export type ReservationBody = FromSchema<typeof reservationBody>;

export const confirmationBody = {
  type: 'object',
  properties: { resellerReference: text(100), contact: contactBody, unitItems: unitItemsBody, emailReceipt: { type: 'boolean' } },
} as const;

export const extensionBody = { type: 'object', properties: { expirationMinutes } } as const;

export const bookingUpdateBody = {
  type: 'object',
  properties: {
    productId: id('a product ID'),
    optionId: id('an option ID'),
    availabilityId: id('an availability ID'),
    unitItems: unitItemsBody,
    expirationMinutes,
    notes: text(2000),
    resellerReference: text(100),
    contact: contactBody,
    emailReceipt: { type: 'boolean' },
  },
} as const;
export type BookingUpdateBody = FromSchema<typeof bookingUpdateBody>;

export const cancellationBody = {
  type: 'object',
  properties: {
    reason: {
      type: ['string', 'null'],
      maxLength: CANCELLATION_REASON.maxLength,
      pattern: NO_CONTROL_CHARACTERS_PATTERN,
      errorMessage: `must be at most ${CANCELLATION_REASON.maxLength} characters without control characters, or null`,
    },
    force: { type: 'boolean' },
  },
} as const;

/** GET /octo/bookings: at least one of the first four forms (checked by the face). */
export const bookingsQuery = {
  type: 'object',
  properties: {
    supplierReference: { type: 'string', minLength: 1, maxLength: 100, errorMessage: 'must be 1 to 100 characters' },
    resellerReference: { type: 'string', minLength: 1, maxLength: 100, errorMessage: 'must be 1 to 100 characters' },
    localDate: isoDate,
    localDateStart: isoDate,
    localDateEnd: isoDate,
    productId: id('a product ID'),
    optionId: id('an option ID'),
  },
} as const;
