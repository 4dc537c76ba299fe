import { creationRange, decodeCursor, encodeCursor } from '../../shared/booking/list';
import * as bookingKeys from '../../shared/db/booking-keys';
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

  it('round-trips a cursor within the range, and refuses one outside it, of another query, or not of its making', () => {
    const { SKFrom, SKTo } = bookingKeys.bookingListRange('op-1', '2026-03-01T00:00:00.000Z', '2026-03-01T23:59:59.999Z');
    const bounds = { from: SKFrom, to: SKTo };
    const pages = { from: '2026-03-01', to: '2026-03-01' };
    const sortKey = '2026-03-01T10:00:00.000Z#ABCDEFGH23';
    expect(decodeCursor(encodeCursor(sortKey, pages), pages, bounds)).toBe(sortKey);
    expect(decodeCursor(encodeCursor(sortKey, { ...pages, channel: 'pos' }), { ...pages, channel: 'pos' }, bounds)).toBe(sortKey);
    expect(encodeCursor(sortKey, pages)).toMatch(/^[A-Za-z0-9_-]+$/);
    for (const bad of [
      encodeCursor('2026-03-02T10:00:00.000Z#ABCDEFGH23', pages),
      encodeCursor('2026-03-01T10:00:00.000Z#ABCDEFGH10', pages),
      encodeCursor('2026-03-01T10:00:00.000Z', pages),
      encodeCursor('{"PK":"OP#x"}', pages),
      Buffer.from(`2026-03-01 2026-03-01 * ${sortKey} more`).toString('base64url'),
      'Zm9v',
    ]) {
      expect(() => decodeCursor(bad, pages, bounds)).toThrow('is not a cursor of this list');
    }
    for (const [issuedFor, usedFor] of [
      [{ ...pages, channel: 'online' }, pages],
      [pages, { ...pages, channel: 'online' }],
      [
        { ...pages, channel: 'online' },
        { ...pages, channel: 'pos' },
      ],
      [{ from: '2026-02-28', to: '2026-03-01' }, pages],
      [pages, { from: '2026-03-01', to: '2026-03-02' }],
    ]) {
      expect(() => decodeCursor(encodeCursor(sortKey, issuedFor), usedFor, bounds)).toThrow('was issued for another range or channel');
    }
  });
});
