import { randomBytes } from 'node:crypto';

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

// The largest multiple of the alphabet size that fits a byte: bytes at or above it are discarded, so no character is favoured.
const UNBIASED_LIMIT = 256 - (256 % REFERENCE_ALPHABET.length);

export function newBookingReference(): string {
  let reference = '';
  while (reference.length < REFERENCE_LENGTH) {
    for (const byte of randomBytes(REFERENCE_LENGTH * 2)) {
      if (byte < UNBIASED_LIMIT && reference.length < REFERENCE_LENGTH) reference += REFERENCE_ALPHABET[byte % REFERENCE_ALPHABET.length];
    }
  }
  return reference;
}

export const normaliseReference = (reference: string): string => reference.toUpperCase();
