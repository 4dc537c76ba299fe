import { createHash } from 'node:crypto';
import type { Caller } from '../core/caller';
import { IdempotencyKeyReusedError, NotFoundError } from '../core/errors';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH, UUID_PATTERN } from './constants';
import type { BookingItem } from './model';
import { getBooking } from './repository';

/**
 * A partner's UUID → its booking. A reservation's reference is derived from
 * the operator, the partner key and the UUID (referenceForUuid), so the UUID
 * finds its booking with one read, and a second request with the same UUID
 * meets the first in the booking's own conditional write.
 */

let uuidPattern: RegExp | undefined;

/** A UUID in any case: a partner's is accepted so and kept lower-cased, as OCTo answers it. */
export const isUuid = (text: string): boolean => (uuidPattern ??= new RegExp(UUID_PATTERN)).test(text);

/**
 * The reference of a UUID booking: drawn from the SHA-256 of the operator,
 * the partner key, the UUID and an attempt number, as newBookingReference
 * draws from random bytes. The first attempt is taken unless another booking
 * already has that reference (about one chance in 10^14 per booking made);
 * then the next. Bookings are never deleted, so the UUID's booking is the
 * first of its attempts that is not another booking's.
 */
export function referenceForUuid(operatorId: string, keyId: string, uuid: string, attempt: number): string {
  let reference = '';
  for (let block = 0; reference.length < REFERENCE_LENGTH; block += 1) {
    const bytes = createHash('sha256').update(`${operatorId}\n${keyId}\n${uuid}\n${attempt}\n${block}`, 'utf8').digest();
    for (const byte of bytes) {
      if (byte < UNBIASED_LIMIT && reference.length < REFERENCE_LENGTH) reference += REFERENCE_ALPHABET[byte % REFERENCE_ALPHABET.length];
    }
  }
  return reference;
}

const UNBIASED_LIMIT = 256 - (256 % REFERENCE_ALPHABET.length);

/** Reference attempts tried for one UUID before giving up: each further one is needed one time in about 10^14. */
export const UUID_REFERENCE_ATTEMPTS = 4;

export type UuidLookup = { found: BookingItem } | { free: string } | { exhausted: true };

/** The booking a partner key's UUID names, or the first reference free for it, reading the attempts in turn. */
export async function lookUpUuid(operatorId: string, keyId: string, uuid: string, from = 0): Promise<UuidLookup> {
  for (let attempt = from; attempt < UUID_REFERENCE_ATTEMPTS; attempt += 1) {
    const reference = referenceForUuid(operatorId, keyId, uuid, attempt);
    const item = await getBooking(operatorId, reference);
    if (!item) return { free: reference };
    if (item.UUID === uuid && item.PartnerKeyID === keyId) return { found: item };
  }
  return { exhausted: true };
}

/** A UUID whose every reference attempt is another booking's: not seen in practice, and answered as a UUID to replace. */
export const uuidUnusable = (uuid: string) =>
  new IdempotencyKeyReusedError('cannot be used for a new booking; send another UUID', { field: 'UUID', subject: 'booking', value: uuid });

const unknownBooking = (uuid: string) =>
  new NotFoundError(`No booking has UUID '${uuid}'`, { field: 'UUID', subject: 'booking', value: uuid });

/** A partner's reservation by its UUID: another key's, another operator's and a malformed UUID are all unknown. */
export async function requireReservation(caller: Caller, uuid: string): Promise<BookingItem> {
  if (!isUuid(uuid)) throw unknownBooking(uuid);
  const lookup = await lookUpUuid(caller.operatorId, caller.keyId, uuid.toLowerCase());
  if (!('found' in lookup)) throw unknownBooking(uuid);
  return lookup.found;
}
