import { createHash } from 'node:crypto';
import type { BookingItem } from './model';
import type { Booking } from './schemas';

/**
 * A booking's personal data: what says who its customer is. Erasure (by the
 * operator, or after the retention period) removes it from the booking and
 * from every copy, and keeps what the operator's accounts need: reference,
 * product, date and time, party, price, payment reference, status and
 * their instants.
 */

/** The customer, an OCTo contact and its notes, waiver answers. */
export const PERSONAL_FIELDS = ['Customer', 'Contact', 'Notes', 'Answers'] as const satisfies readonly (keyof BookingItem)[];

export const holdsPersonalData = (booking: Pick<BookingItem, (typeof PERSONAL_FIELDS)[number]>): boolean =>
  PERSONAL_FIELDS.some((field) => booking[field] !== undefined);

/** Who erased a booking's personal data: the operator (an erasure request), or the retention sweep. */
export type ErasedBy = 'operator' | 'retention';

/**
 * The booking without its personal data, erased at `at`: the request's hash
 * of an OCTo reservation goes too, being a hash of its contact (a guessed
 * name and email could be tested against it).
 */
export function withoutPersonalData(booking: BookingItem, at: string, by: ErasedBy): BookingItem {
  const { Customer: _customer, Contact: _contact, Notes: _notes, Answers: _answers, RequestHash: _hash, ...kept } = booking;
  return { ...kept, ErasedAt: at, ErasedBy: by };
}

/** A booking record as an answer or an event carried it (a stored response, a webhook's data), without its personal data. */
export function scrubbedRecord(record: Booking, at: string): Booking {
  const { Customer: _customer, Answers: _answers, ...kept } = record;
  return { ...kept, ErasedAt: at };
}

/** The customer's email a booking holds: its Customer's, or an OCTo contact's that made no Customer. */
export const customerEmail = (booking: Pick<BookingItem, 'Customer' | 'Contact'>): string | undefined =>
  booking.Customer?.Email ?? booking.Contact?.EmailAddress;

/** The SHA-256 of an email as one customer's: trimmed and in lower case, so `Ana@Example.com ` is `ana@example.com`. */
export const emailHash = (email: string): string => createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('hex');
