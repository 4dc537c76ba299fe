import { creationRange, decodeCursor, encodeCursor } from '../../shared/booking/list';
import { bookingKeys } from '../../shared/db/keys';
import { ValidationError } from '../../shared/core/errors';

describe('the operator booking list', () => {
  it('turns from..to into the instants that open and close those days in the operator time zone', () => {
    expect(creationRange('2026-03-01', '2026-03-02', 'Asia/Tokyo')).toEqual({
      fromIso: '2026-02-28T15:00:00.000Z',
      toIso: '2026-03-02T14:59:59.999Z',
    });
    // The day Lisbon moves to summer time has 23 hours.
    expect(creationRange('2026-03-29', '2026-03-29', 'Europe/Lisbon')).toEqual({
      fromIso: '2026-03-29T00:00:00.000Z',
      toIso: '2026-03-29T22:59:59.999Z',
    });
    expect(() => creationRange('2026-03-02', '2026-03-01', 'UTC')).toThrow(ValidationError);
  });

  it('round-trips a cursor within the range, and refuses one outside it or not of its making', () => {
    const { SKFrom, SKTo } = bookingKeys.bookingListRange('op-1', '2026-03-01T00:00:00.000Z', '2026-03-01T23:59:59.999Z');
    const bounds = { from: SKFrom, to: SKTo };
    const sortKey = '2026-03-01T10:00:00.000Z#ABCDEFGH23';
    expect(decodeCursor(encodeCursor(sortKey), bounds)).toBe(sortKey);
    expect(encodeCursor(sortKey)).toMatch(/^[A-Za-z0-9_-]+$/);
    for (const bad of [
      encodeCursor('2026-03-02T10:00:00.000Z#ABCDEFGH23'),
      encodeCursor('2026-03-01T10:00:00.000Z#ABCDEFGH10'),
      encodeCursor('2026-03-01T10:00:00.000Z'),
      encodeCursor('{"PK":"OP#x"}'),
      'Zm9v',
    ]) {
      expect(() => decodeCursor(bad, bounds)).toThrow(ValidationError);
    }
  });
});
