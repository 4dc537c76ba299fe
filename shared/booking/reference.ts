import { randomBytes } from 'node:crypto';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH } from './constants';

/** Draws new references from the OS's CSPRNG (the rules of a reference are in model.ts). */

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
