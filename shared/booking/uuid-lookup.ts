import { createHash } from 'node:crypto';
import type { Caller } from '../core/caller';
import { NotFoundError } from '../core/errors';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH, UUID_PATTERN } from './constants';
import type { BookingItem } from './model';
import { getBooking, getUuidItems, type UuidItems, type UuidRead } from './repository';

/**
 * A partner's UUID → its booking. A reservation's reference is drawn at
 * random, as every booking's is (reference.ts); the UUID finds it through an
 * index item (operator, key, UUID → reference) written in the booking's own
 * transaction with attribute_not_exists, so a second request with the same
 * UUID meets the first in that condition. Bookings made while references
 * were derived from the operator, the key and the UUID (derivedReference)
 * have no index item: they are found at their derived reference, so a
 * reference a reseller already holds keeps working.
 */

let uuidPattern: RegExp | undefined;

/** A UUID in any case: a partner's is accepted so and kept lower-cased, as OCTo answers it. */
export const isUuid = (text: string): boolean => (uuidPattern ??= new RegExp(UUID_PATTERN)).test(text);

/**
 * The reference a UUID booking was given while references were derived (no
 * booking is given one now): drawn from the SHA-256 of the operator, the key,
 * the UUID and an attempt number. The first attempt was taken unless another
 * booking had that reference, then the next; bookings are never deleted, so
 * such a booking is the first of its attempts that is not another booking's.
 */
export function derivedReference(operatorId: string, keyId: string, uuid: string, attempt: number): string {
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

/** Attempts a derived reference had: each further one was needed one time in about 10^14. */
const DERIVED_ATTEMPTS = 4;

/** What a first read of a UUID takes, in one round trip with whatever else its caller reads: its index item and its first derived reference. */
export const uuidRead = (operatorId: string, keyId: string, uuid: string): UuidRead => ({
  operatorId,
  keyId,
  uuid,
  derived: derivedReference(operatorId, keyId, uuid, 0),
});

/** The UUID's booking from its first read: the booking its index names, or a booking made before with a derived reference. */
export async function resolveUuid(read: UuidRead, found: UuidItems): Promise<BookingItem | undefined> {
  const { operatorId, keyId, uuid } = read;
  if (found.index) return getBooking(operatorId, found.index.BookingReference);
  let item = found.derived;
  for (let attempt = 1; item; attempt += 1) {
    if (item.UUID === uuid && item.PartnerKeyID === keyId) return item;
    if (attempt === DERIVED_ATTEMPTS) return undefined;
    item = await getBooking(operatorId, derivedReference(operatorId, keyId, uuid, attempt));
  }
  return undefined;
}

/** The booking a partner key's UUID names, if any. */
export async function lookUpUuid(operatorId: string, keyId: string, uuid: string): Promise<BookingItem | undefined> {
  const read = uuidRead(operatorId, keyId, uuid);
  return resolveUuid(read, await getUuidItems(read));
}

const unknownBooking = (uuid: string) =>
  new NotFoundError(`No booking has UUID '${uuid}'`, { field: 'UUID', subject: 'booking', value: uuid });

/** A partner's reservation by its UUID: another key's, another operator's and a malformed UUID are all unknown. */
export async function requireReservation(caller: Caller, uuid: string): Promise<BookingItem> {
  if (!isUuid(uuid)) throw unknownBooking(uuid);
  const found = await lookUpUuid(caller.operatorId, caller.keyId, uuid.toLowerCase());
  if (!found) throw unknownBooking(uuid);
  return found;
}
