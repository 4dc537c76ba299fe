import type { ProductItem } from '../../shared/catalog/model';
import { UnprocessableError, ValidationError } from '../../shared/core/errors';
import { partyOf } from '../../shared/booking/create-booking';
import type { BookingItem } from '../../shared/booking/model';
import { party, repriced } from '../../shared/booking/unit-items';

/**
 * A party and its price, decided with no I/O: a reservation's unit items
 * (shared/booking/unit-items.ts) and a marketplace booking's Units or
 * Participants (create-booking.ts's partyOf), both priced by the
 * catalogue's one rule.
 */

const product: ProductItem = {
  ProductID: 601,
  ActivityID: 's_boat1',
  Name: 'Bay Boat Trip',
  NameLower: 'bay boat trip',
  Description: '',
  Visible: true,
  DurationMinutes: 90,
  MaxParticipantsPerBooking: 8,
  PricePerParticipant: { Amount: 4000, Currency: 'EUR' },
  Questions: [],
  Units: [
    { UnitID: 'adult', Name: 'Adult', Type: 'ADULT', Price: { Amount: 4000, Currency: 'EUR' } },
    { UnitID: 'child', Name: 'Child', Type: 'CHILD', Price: { Amount: 2500, Currency: 'EUR' }, MaxQuantity: 4 },
    { UnitID: 'family', Name: 'Family', Type: 'FAMILY', Price: { Amount: 12000, Currency: 'EUR' }, PaxCount: 4 },
    { UnitID: 'infant', Name: 'Infant', Type: 'INFANT', Price: { Amount: 0, Currency: 'EUR' }, AccompaniedBy: ['adult'] },
  ],
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const A = '0b6a1f43-5d3e-4c1a-9a7e-2f1d4c8b9e10';
const B = '7c2e9d10-1a2b-4c3d-8e9f-0a1b2c3d4e5f';

/** The refusal `act` throws: its class, field and words. */
function refusal(act: () => unknown) {
  try {
    act();
  } catch (error) {
    return { kind: (error as Error).constructor, field: (error as ValidationError).field, message: (error as Error).message };
  }
  throw new Error('was not refused');
}

describe('a party of unit items', () => {
  test("is counted into units, priced at the product's prices, and takes their places", () => {
    const { units, participants, unitItems } = party(product, [
      { UnitID: 'adult' },
      { UnitID: 'child' },
      { UnitID: 'adult' },
      { UnitID: 'family' },
    ]);
    expect(units).toEqual([
      { UnitID: 'adult', Quantity: 2, UnitPrice: { Amount: 4000, Currency: 'EUR' } },
      { UnitID: 'child', Quantity: 1, UnitPrice: { Amount: 2500, Currency: 'EUR' } },
      { UnitID: 'family', Quantity: 1, UnitPrice: { Amount: 12000, Currency: 'EUR' } },
    ]);
    expect(participants).toBe(7);
    expect(unitItems.map((item) => item.UnitID)).toEqual(['adult', 'child', 'adult', 'family']);
  });

  test("gives each item a UUID: the partner's own, lower-cased, or a new one", () => {
    const { unitItems } = party(product, [{ UnitID: 'adult', UUID: A.toUpperCase() }, { UnitID: 'adult' }]);
    expect(unitItems[0]).toEqual({ UUID: A, UnitID: 'adult' });
    expect(unitItems[1].UUID).toMatch(UUID);
    expect(unitItems[1].UUID).not.toBe(A);
  });

  test('an item sent again without its UUID keeps the UUID of the item of the same unit it replaces', () => {
    const kept = [
      { UUID: A, UnitID: 'adult' },
      { UUID: B, UnitID: 'child' },
    ];
    const { unitItems } = party(product, [{ UnitID: 'child' }, { UnitID: 'adult' }, { UnitID: 'adult' }], kept);
    expect(unitItems.slice(0, 2)).toEqual([
      { UUID: B, UnitID: 'child' },
      { UUID: A, UnitID: 'adult' },
    ]);
    expect(unitItems[2].UUID).not.toBe(A);
    // A UUID another item names is not handed to an item sent without one.
    expect(party(product, [{ UnitID: 'adult' }, { UnitID: 'child', UUID: A }], kept).unitItems[0].UUID).not.toBe(A);
  });

  test.each([
    ['no items', [], { kind: UnprocessableError, field: 'UnitItems', message: 'must hold at least one unit item' }],
    [
      'a unit the product has not',
      [{ UnitID: 'adult' }, { UnitID: 'senior' }],
      { kind: ValidationError, field: 'UnitItems[1].UnitID', message: "'senior' is not a unit of activity s_boat1" },
    ],
    [
      'more of a unit than a booking may hold',
      Array.from({ length: 5 }, () => ({ UnitID: 'child' })),
      { kind: UnprocessableError, field: 'UnitItems[0].UnitID', message: "holds 5 of unit 'child'; a booking holds 1 to 4 of it" },
    ],
    [
      'a unit without the unit it must come with',
      [{ UnitID: 'infant' }],
      { kind: UnprocessableError, field: 'UnitItems[0].UnitID', message: "unit 'infant' must be booked with one of: adult" },
    ],
    [
      'more places than the activity takes',
      [{ UnitID: 'family' }, { UnitID: 'family' }, { UnitID: 'adult' }],
      { kind: UnprocessableError, field: 'Participants', message: 'is 9 place(s); activity s_boat1 takes at most 8 per booking' },
    ],
    [
      'one UUID for two items',
      [
        { UnitID: 'adult', UUID: A },
        { UnitID: 'child', UUID: A.toUpperCase() },
      ],
      { kind: ValidationError, field: 'UnitItems[1].UUID', message: 'repeats the UUID of another unit item' },
    ],
  ])('refuses %s, naming the field', (_, items, expected) => {
    expect(refusal(() => party(product, items))).toEqual(expected);
  });

  test("is priced anew when it changes: the product's prices now, the items kept keeping their UUIDs", () => {
    const current = { UnitItems: [{ UUID: A, UnitID: 'adult' }] } as BookingItem;
    const cheaper = { ...product, Units: product.Units!.map((unit) => ({ ...unit, Price: { Amount: 1000, Currency: 'EUR' } })) };
    expect(repriced(cheaper, current, [{ UnitID: 'adult' }, { UnitID: 'adult' }])).toEqual({
      Units: [{ UnitID: 'adult', Quantity: 2, UnitPrice: { Amount: 1000, Currency: 'EUR' } }],
      Participants: 2,
      UnitItems: [
        { UUID: A, UnitID: 'adult' },
        { UUID: expect.stringMatching(UUID), UnitID: 'adult' },
      ],
      TotalPrice: { Amount: 2000, Currency: 'EUR' },
    });
  });
});

describe("a marketplace booking's party", () => {
  test('by Units: priced, and its Participants must be their places', () => {
    expect(partyOf(product, { Units: [{ UnitID: 'family', Quantity: 1 }], Participants: 4 })).toEqual([
      { UnitID: 'family', Quantity: 1, UnitPrice: { Amount: 12000, Currency: 'EUR' } },
    ]);
    expect(refusal(() => partyOf(product, { Units: [{ UnitID: 'family', Quantity: 1 }], Participants: 2 }))).toEqual({
      kind: ValidationError,
      field: 'Participants',
      message: 'is 2, but the Units take 4 place(s)',
    });
  });

  test('by Participants alone: that many, within the activity', () => {
    expect(partyOf(product, { Participants: 8 })).toBeUndefined();
    expect(refusal(() => partyOf(product, { Participants: 9 }))).toEqual({
      kind: UnprocessableError,
      field: 'Participants',
      message: 'is 9; activity s_boat1 takes at most 8 per booking',
    });
  });
});
