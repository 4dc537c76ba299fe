/**
 * The booking rules' constants: they import nothing, the schemas are written
 * on them (schemas.ts) and the stored shapes on the schemas (model.ts).
 */

/**
 * Booking references: 10 characters from an alphabet without look-alikes
 * (no 0/O, 1/I/L), so a reference survives being read over the phone.
 * 31^10 ≈ 8 × 10^14 values (about 49 bits) drawn from the OS's CSPRNG make
 * references unguessable; the booking is written with attribute_not_exists,
 * so a collision is retried with a new reference and can never overwrite.
 */
export const REFERENCE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const REFERENCE_LENGTH = 10;
/** Accepts lower case too: a reference typed from a phone call is upper-cased before use. */
export const REFERENCE_PATTERN = `^[${REFERENCE_ALPHABET}${REFERENCE_ALPHABET.toLowerCase().replace(/[0-9]/g, '')}]{${REFERENCE_LENGTH}}$`;

/** Pages of the operator's list: `limit` defaults to this ... */
export const DEFAULT_PAGE_SIZE = 50;
/** ... and may be at most this. */
export const MAX_PAGE_SIZE = 200;

export const CHANNELS = ['ota', 'online', 'pos'] as const;
export type Channel = (typeof CHANNELS)[number];
/** The channel of the bookings partners make, through the partner API or OCTo (with the partner's key as PartnerKeyID). */
export const PARTNER_CHANNEL = 'ota' satisfies Channel;
/** Channels the operator records itself (admin CLI or import); partners' bookings come only through their APIs. */
export type OperatorChannel = Exclude<Channel, typeof PARTNER_CHANNEL>;

/**
 * A booking's life: ON_HOLD → CONFIRMED → CANCELLED, ON_HOLD → CANCELLED,
 * ON_HOLD → EXPIRED. Held and confirmed bookings take places; moving to
 * CANCELLED or EXPIRED gives them back, once, in the same transaction.
 */
export const BOOKING_STATUSES = ['ON_HOLD', 'CONFIRMED', 'CANCELLED', 'EXPIRED'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Hold lengths a partner may ask for, in minutes; a hold without ExpiresInMinutes lasts the default. */
export const HOLD_MINUTES = { min: 1, max: 60, default: 15 } as const;

/**
 * A hold lives at most this long from when it was made, however often it is
 * extended: room for a reseller's checkout (a customer who pays by bank
 * redirect, or comes back to the basket after lunch), never a way to keep a
 * timeslot off sale for others by extending it forever.
 */
export const HOLD_LIFE_MINUTES = 180;

/** Idempotency records of bookings live this long (DynamoDB TTL on ExpiresAt). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** The largest party the schema lets through; the activity's own maximum is checked against the product. */
export const MAX_PARTICIPANTS = 10_000;

/** A UUID (8-4-4-4-12 hexadecimal digits), in any case: a partner's is kept lower-cased, as OCTo answers it. */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** E.164: '+', a country code that does not start with 0, at most 15 digits in all. */
export const E164_PATTERN = '^\\+[1-9][0-9]{6,14}$';

/** Control characters (C0 and DEL): refused in every text a booking keeps, since they break the operator's exports and printed lists. */
const CONTROL_CHARACTERS = '\\u0000-\\u001F\\u007F';
/** Text without control characters, blank allowed. */
export const NO_CONTROL_CHARACTERS_PATTERN = `^[^${CONTROL_CHARACTERS}]*$`;
/** Some visible text, and no control characters. */
export const VISIBLE_TEXT_PATTERN = `^(?=.*\\S)[^${CONTROL_CHARACTERS}]+$`;

/** A customer's first and last name are at most this long ... */
export const NAME_MAX_LENGTH = 100;
/** ... and an email address at most this (RFC 5321's path limit). */
export const EMAIL_MAX_LENGTH = 254;
/** An email address: a dot-atom local part, @, and a domain of dotted labels (the email format of JSON Schema validators, in any case). */
export const EMAIL_PATTERN =
  "^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\\.)+[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$";

/** The reason of a cancellation: an operator's, or a partner's (through OCTo). */
export const CANCELLATION_REASON = {
  maxLength: 500,
  rule: 'must be 1 to 500 characters, not all blank, without control characters',
} as const;
