import { REFERENCE_ALPHABET, REFERENCE_LENGTH, REFERENCE_PATTERN } from '../../shared/booking/constants';
import { newBookingReference, normaliseReference } from '../../shared/booking/reference';

describe('booking references', () => {
  it('use no look-alike characters', () => {
    for (const lookAlike of ['0', 'O', '1', 'I', 'L']) expect(REFERENCE_ALPHABET).not.toContain(lookAlike);
    expect(new Set(REFERENCE_ALPHABET).size).toBe(REFERENCE_ALPHABET.length);
  });

  it('are 10 characters of the alphabet, and distinct across many draws', () => {
    const drawn = Array.from({ length: 20_000 }, newBookingReference);
    for (const reference of drawn) expect(reference).toMatch(new RegExp(`^[${REFERENCE_ALPHABET}]{${REFERENCE_LENGTH}}$`));
    expect(new Set(drawn).size).toBe(drawn.length);
  });

  it('draw every character of the alphabet', () => {
    const seen = new Set(Array.from({ length: 2_000 }, newBookingReference).join(''));
    expect([...seen].sort().join('')).toBe([...REFERENCE_ALPHABET].sort().join(''));
  });

  it('are accepted in either case in a path, and normalised to upper case', () => {
    const pattern = new RegExp(REFERENCE_PATTERN);
    expect(pattern.test('ABCDEFGH23')).toBe(true);
    expect(pattern.test('abcdefgh23')).toBe(true);
    expect(normaliseReference('abcdefgh23')).toBe('ABCDEFGH23');
    for (const bad of ['ABCDEFGH2', 'ABCDEFGH234', 'ABCDEFGH10', 'ABCDEFGHIL', 'abcdefghio', 'ABCD-EFGH2'])
      expect(pattern.test(bad)).toBe(false);
  });
});
