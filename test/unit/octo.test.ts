import {
  BookingCancelledError,
  ConfirmedAlreadyError,
  HoldExpiredError,
  NotOnHoldError,
  TimeslotStartedError,
} from '../../shared/booking/errors';
import { REFERENCE_ALPHABET, REFERENCE_LENGTH } from '../../shared/booking/constants';
import { derivedReference } from '../../shared/booking/uuid-lookup';
import { checkCatalog } from '../../shared/catalog/catalog-rules';
import { priceUnits } from '../../shared/catalog/units';
import {
  CapacityError,
  IdempotencyKeyReusedError,
  InvalidRequestError,
  NotFoundError,
  UnprocessableError,
  ValidationError,
} from '../../shared/core/errors';
import { MalformedJsonError, UnsupportedMediaTypeError } from '../../shared/http/errors';
import type { ParsedEvent } from '../../shared/http/handler';
import { octoBodyOf, requestedCapabilities } from '../../shared/octo/face';
import { availabilityIdOf, slotOfAvailabilityId, octoAvailability, utcSeconds, type ShopfrontProduct } from '../../shared/octo/render';

describe('availability IDs', () => {
  test.each([
    ['Europe/Lisbon', '2026-07-01', '10:00', '2026-07-01T10:00:00+01:00'],
    ['Europe/Lisbon', '2026-12-01', '10:00', '2026-12-01T10:00:00+00:00'],
    ['America/New_York', '2026-03-08', '00:00', '2026-03-08T00:00:00-05:00'],
    ['Asia/Kolkata', '2026-07-01', '09:30', '2026-07-01T09:30:00+05:30'],
  ])('in %s, %s %s is %s, and back', (timeZone, date, time, id) => {
    expect(availabilityIdOf({ Date: date, Time: time }, timeZone)).toBe(id);
    expect(slotOfAvailabilityId(id, timeZone)).toEqual({ Date: date, Time: time });
  });

  test('an ID with the wrong offset for its date, or not an ID of ours, names no timeslot', () => {
    expect(slotOfAvailabilityId('2026-07-01T10:00:00+00:00', 'Europe/Lisbon')).toBeUndefined();
    expect(slotOfAvailabilityId('2026-07-01T10:00:30+01:00', 'Europe/Lisbon')).toBeUndefined();
    expect(slotOfAvailabilityId('invalidAvailabilityId', 'Europe/Lisbon')).toBeUndefined();
    expect(slotOfAvailabilityId('2026-02-30T10:00:00+00:00', 'UTC')).toBeUndefined();
    expect(slotOfAvailabilityId('2026-07-01T10:00:00Z', 'UTC')).toEqual({ Date: '2026-07-01', Time: '10:00' });
  });

  test.each([
    // The repeated 01:30 is its first pass, whichever side of Greenwich.
    ['Europe/Lisbon', '2027-10-31', '01:30', '2027-10-31T01:30:00+01:00'],
    ['America/New_York', '2027-11-07', '01:30', '2027-11-07T01:30:00-04:00'],
    // A day ticket on a day without midnight: its 00:00 with the offset before the skip names the day's first instant.
    ['America/Santiago', '2026-09-06', '00:00', '2026-09-06T00:00:00-04:00'],
    ['America/Santiago', '2026-09-06', '01:00', '2026-09-06T01:00:00-03:00'],
  ])('across a change of the clocks in %s, %s %s is %s, and back', (timeZone, date, time, id) => {
    expect(availabilityIdOf({ Date: date, Time: time }, timeZone)).toBe(id);
    expect(slotOfAvailabilityId(id, timeZone)).toEqual({ Date: date, Time: time });
  });

  test('the second pass of a repeated time names no timeslot: a timeslot is the first', () => {
    expect(slotOfAvailabilityId('2027-10-31T01:30:00+00:00', 'Europe/Lisbon')).toBeUndefined();
    expect(slotOfAvailabilityId('2027-11-07T01:30:00-05:00', 'America/New_York')).toBeUndefined();
  });

  test("UTC instants are to the second, as OCTo's validator wants them", () => {
    expect(utcSeconds('2026-07-01T09:00:00.123Z')).toBe('2026-07-01T09:00:00Z');
  });
});

describe('an availability is one instant: start, end and cut-off', () => {
  const product = (DurationMinutes: number, dayTicket = false): ShopfrontProduct => ({
    ProductID: 1,
    ActivityID: 's_night1',
    Name: 'Night walk',
    NameLower: 'night walk',
    Description: '',
    Visible: true,
    DurationMinutes,
    MaxParticipantsPerBooking: 4,
    PricePerParticipant: { Amount: 1000, Currency: 'EUR' },
    AvailabilityType: dayTicket ? 'OPENING_HOURS' : 'START_TIME',
  });
  const slot = (Date: string, Time: string, OpeningHours?: { From: string; To: string }[]) => ({
    Date,
    Time,
    Capacity: 10,
    Booked: 0,
    Vacancies: 10,
    ...(OpeningHours ? { OpeningHours } : {}),
  });
  const times = (availability: { id: string; localDateTimeStart: string; localDateTimeEnd: string; utcCutoffAt: string }) => ({
    id: availability.id,
    start: availability.localDateTimeStart,
    end: availability.localDateTimeEnd,
    cutoff: availability.utcCutoffAt,
  });

  test('a 60-minute activity at the repeated 01:30 lasts 60 minutes from its first pass', () => {
    expect(times(octoAvailability(slot('2027-10-31', '01:30'), product(60), { timeZone: 'Europe/Lisbon', withPricing: false }))).toEqual({
      id: '2027-10-31T01:30:00+01:00',
      start: '2027-10-31T01:30:00+01:00',
      end: '2027-10-31T01:30:00+00:00',
      cutoff: '2027-10-31T00:30:00Z',
    });
  });

  test('a timeslot stored at a skipped time (imported before they were refused) starts where the clocks land, and lasts its duration', () => {
    expect(times(octoAvailability(slot('2027-03-14', '02:30'), product(60), { timeZone: 'America/New_York', withPricing: false }))).toEqual(
      {
        id: '2027-03-14T02:30:00-05:00',
        start: '2027-03-14T03:30:00-04:00',
        end: '2027-03-14T04:30:00-04:00',
        cutoff: '2027-03-14T07:30:00Z',
      },
    );
  });

  test("a day ticket on a day without midnight runs from the day's first instant to the next day's", () => {
    const day = slot('2026-09-06', '00:00', [{ From: '09:00', To: '18:00' }]);
    expect(times(octoAvailability(day, product(60, true), { timeZone: 'America/Santiago', withPricing: false }))).toEqual({
      id: '2026-09-06T00:00:00-04:00',
      start: '2026-09-06T01:00:00-03:00',
      end: '2026-09-07T00:00:00-03:00',
      cutoff: '2026-09-06T21:00:00Z',
    });
  });
});

describe('references UUID bookings were given while they were derived (their uuids find them still)', () => {
  const uuid = '0b6a1f43-5d3e-4c1a-9a7e-2f1d4c8b9e10';

  test('are drawn from the operator, the key, the uuid and the attempt: the same every time, another for any change', () => {
    const reference = derivedReference('demo', 'key_a', uuid, 0);
    expect(reference).toMatch(new RegExp(`^[${REFERENCE_ALPHABET}]{${REFERENCE_LENGTH}}$`));
    // The value the derivation gave, pinned: a change to it would lose every booking made with it.
    expect(reference).toBe('3R9KRP7QJ7');
    const others = [
      derivedReference('demo', 'key_b', uuid, 0),
      derivedReference('other', 'key_a', uuid, 0),
      derivedReference('demo', 'key_a', uuid.replace('0b6a', '0b6b'), 0),
      derivedReference('demo', 'key_a', uuid, 1),
    ];
    expect(new Set([reference, ...others]).size).toBe(5);
  });
});

describe('capabilities', () => {
  test('only those the service has are applied; names are trimmed and exact', () => {
    expect(requestedCapabilities({ 'octo-capabilities': ' octo/content , octo/pricing' })).toEqual(['octo/pricing']);
    expect(requestedCapabilities({ 'octo-capabilities': 'OCTO/PRICING' })).toEqual([]);
    expect(requestedCapabilities({})).toEqual([]);
  });
});

describe("OCTo's error body: the one mapping of the face", () => {
  const request = {
    event: { body: { productId: 's_sent', availabilityId: 'sent-id' }, pathParameters: { uuid: 'path-uuid' } } as unknown as ParsedEvent,
    fields: { path: new Set(['uuid']) },
  };
  const booking = { BookingReference: 'K5DDMJMXFQ', HoldExpiresAt: 'x', CancelledAt: 'y', StartsAt: 'z', Status: 'CONFIRMED' as const };

  test.each([
    [new NotFoundError('No activity', { subject: 'product', value: 's_x' }), 'INVALID_PRODUCT_ID', { productId: 's_x' }],
    [new NotFoundError('No activity', { subject: 'product' }), 'INVALID_PRODUCT_ID', { productId: 's_sent' }],
    [new NotFoundError('No option', { subject: 'option', value: 'OTHER' }), 'INVALID_OPTION_ID', { optionId: 'OTHER' }],
    [new ValidationError('not a unit', { field: 'UnitItems[0].UnitID', subject: 'unit', value: 'u' }), 'INVALID_UNIT_ID', { unitId: 'u' }],
    [new ValidationError('has started', { field: 'Time', subject: 'timeslot' }), 'INVALID_AVAILABILITY_ID', { availabilityId: 'sent-id' }],
    [new NotFoundError('No booking', { subject: 'booking' }), 'INVALID_BOOKING_UUID', { uuid: 'path-uuid' }],
    [
      new IdempotencyKeyReusedError('was already used', { field: 'UUID', subject: 'booking', value: 'u-1' }),
      'INVALID_BOOKING_UUID',
      { uuid: 'u-1' },
    ],
    [new ValidationError('is required', { field: 'productId' }), 'BAD_REQUEST', {}],
    [new InvalidRequestError('Give exactly one'), 'BAD_REQUEST', {}],
    [new IdempotencyKeyReusedError('was used'), 'BAD_REQUEST', {}],
    [new MalformedJsonError(), 'BAD_REQUEST', {}],
    [new UnsupportedMediaTypeError(), 'BAD_REQUEST', {}],
    [new UnprocessableError('must hold at least one unit item', { field: 'UnitItems' }), 'UNPROCESSABLE_ENTITY', {}],
    [new CapacityError('full'), 'UNPROCESSABLE_ENTITY', {}],
    [HoldExpiredError.of(booking), 'UNPROCESSABLE_ENTITY', {}],
    [BookingCancelledError.of(booking), 'UNPROCESSABLE_ENTITY', {}],
    [TimeslotStartedError.of(booking, 'changed'), 'UNPROCESSABLE_ENTITY', {}],
    [NotOnHoldError.of(booking), 'UNPROCESSABLE_ENTITY', {}],
  ])('%p is 400 %s', (error, code, echo) => {
    const { status, body } = octoBodyOf(error, request);
    expect(status).toBe(400);
    expect(body).toEqual({ error: code, errorMessage: expect.stringMatching(/\S/), ...echo });
  });

  test('a field the request carried is named where it carried it', () => {
    expect(octoBodyOf(new ValidationError('is required', { field: 'productId' }), request).body.errorMessage).toBe(
      "Field 'productId' is required",
    );
    expect(octoBodyOf(new ValidationError('is too long', { field: 'uuid' }), request).body.errorMessage).toBe(
      "Path parameter 'uuid' is too long",
    );
  });

  test("what the client does next is OCTo's HTTP, said by the face after the domain's own words", () => {
    const confirmedAlready = ConfirmedAlreadyError.of(booking);
    expect(confirmedAlready.message).toBe("Booking 'K5DDMJMXFQ' is confirmed already, and a confirmation does not change it");
    expect(octoBodyOf(confirmedAlready, request)).toEqual({
      status: 400,
      body: {
        error: 'UNPROCESSABLE_ENTITY',
        errorMessage: "Booking 'K5DDMJMXFQ' is confirmed already, and a confirmation does not change it; change it with PATCH",
      },
    });
    // Other refusals of the booking's state keep the domain's words alone.
    expect(octoBodyOf(NotOnHoldError.of(booking), request).body.errorMessage).toBe(NotOnHoldError.of(booking).message);
  });

  test("a field the domain names is said in OCTo's words", () => {
    const said = (field: string) => octoBodyOf(new ValidationError('is wrong', { field }), request).body.errorMessage;
    expect(said('UnitItems[2].UnitID')).toBe("Field 'unitItems[2].unitId' is wrong");
    expect(said('UnitItems[1].UUID')).toBe("Field 'unitItems[1].uuid' is wrong");
    expect(said('HoldMinutes')).toBe("Field 'expirationMinutes' is wrong");
    expect(said('ActivityID')).toBe("Field 'productId' is wrong");
    expect(said('Participants')).toBe("Field 'unitItems' is wrong");
    expect(said('UUID')).toBe("Path parameter 'uuid' is wrong");
    // OCTo's own names, as its validators report them, stay as they are.
    expect(said('contact.firstName')).toBe("Field 'contact.firstName' is wrong");
  });

  test('anything unexpected is 500 INTERNAL_SERVER_ERROR, without its internals', () => {
    const { status, body } = octoBodyOf(new Error('ECONNREFUSED 10.0.0.1'), request);
    expect(status).toBe(500);
    expect(body).toEqual({
      error: 'INTERNAL_SERVER_ERROR',
      errorMessage: 'The server could not complete the request; it is safe to retry',
    });
  });
});

describe('units', () => {
  const product = {
    ActivityID: 's_boat1',
    MaxParticipantsPerBooking: 8,
    PricePerParticipant: { Amount: 4000, Currency: 'EUR' },
    Units: [
      { UnitID: 'adult', Name: 'Adult', Type: 'ADULT' as const, Price: { Amount: 4000, Currency: 'EUR' } },
      { UnitID: 'family', Name: 'Family', Type: 'FAMILY' as const, Price: { Amount: 12000, Currency: 'EUR' }, PaxCount: 4, MaxQuantity: 1 },
      {
        UnitID: 'infant',
        Name: 'Infant',
        Type: 'INFANT' as const,
        Price: { Amount: 0, Currency: 'EUR' },
        AccompaniedBy: ['adult', 'family'],
      },
    ],
  };
  const field = (index: number) => `Units[${index}]`;

  test('a party is priced at its units and takes their pax', () => {
    expect(
      priceUnits(
        product,
        [
          { UnitID: 'family', Quantity: 1 },
          { UnitID: 'infant', Quantity: 2 },
        ],
        field,
      ),
    ).toEqual({
      units: [
        { UnitID: 'family', Quantity: 1, UnitPrice: { Amount: 12000, Currency: 'EUR' } },
        { UnitID: 'infant', Quantity: 2, UnitPrice: { Amount: 0, Currency: 'EUR' } },
      ],
      participants: 6,
    });
  });

  test.each([
    [[{ UnitID: 'family', Quantity: 2 }], UnprocessableError, /holds 2 of unit 'family'; a booking holds 1 to 1/],
    [[{ UnitID: 'infant', Quantity: 1 }], UnprocessableError, /must be booked with one of: adult, family/],
    [[{ UnitID: 'adult', Quantity: 9 }], UnprocessableError, /9 place\(s\); activity s_boat1 takes at most 8/],
    [[{ UnitID: 'senior', Quantity: 1 }], ValidationError, /'senior' is not a unit of activity s_boat1/],
    [[], UnprocessableError, /at least one unit/],
  ])('%j is refused', (units, kind, message) => {
    expect(() => priceUnits(product, units, field)).toThrow(kind);
    expect(() => priceUnits(product, units, field)).toThrow(message);
  });
});

describe('the catalogue: units and day tickets', () => {
  const base = {
    ProductID: 1,
    ActivityID: 's_one',
    Name: 'One',
    DurationMinutes: 60,
    MaxParticipantsPerBooking: 4,
    PricePerParticipant: { Amount: 1000, Currency: 'EUR' },
  };
  const schedule = { From: '2026-07-01', To: '2026-07-07', Weekdays: ['MON' as const], Capacity: 10 };
  const refusal = (product: Record<string, unknown>) => {
    try {
      checkCatalog({ Products: [{ ...base, ...product }] }, 'Europe/Lisbon');
      return 'accepted';
    } catch (error) {
      const { field, message } = error as { field?: string; message: string };
      return `${field ?? ''} ${message}`.trim();
    }
  };

  test('units: the first is what a participant books, all in one currency, companions are other units', () => {
    const adult = { UnitID: 'adult', Name: 'Adult', Type: 'ADULT', Price: { Amount: 1000, Currency: 'EUR' } };
    expect(refusal({ Units: [adult, { ...adult, UnitID: 'child', Type: 'CHILD', Price: { Amount: 500, Currency: 'EUR' } }] })).toBe(
      'accepted',
    );
    expect(refusal({ Units: [{ ...adult, Price: { Amount: 900, Currency: 'EUR' } }] })).toMatch(
      /^Products\[0\]\.Units\[0\] must be what one participant books/,
    );
    expect(refusal({ Units: [adult, { ...adult, UnitID: 'child', Price: { Amount: 500, Currency: 'USD' } }] })).toMatch(
      /^Products\[0\]\.Units\[1\]\.Price\.Currency must be in EUR/,
    );
    expect(refusal({ Units: [adult, adult] })).toMatch(/UnitID 'adult' appears twice/);
    expect(refusal({ Units: [adult, { ...adult, UnitID: 'kid', AccompaniedBy: ['parent'] }] })).toMatch(/names 'parent'/);
    expect(refusal({ Units: [{ ...adult, MinAge: 30, MaxAge: 20 }] })).toMatch(/MinAge must not be above MaxAge/);
  });

  test('day tickets give opening hours, ascending and not overlapping; start-time products give times', () => {
    const hours = [
      { From: '10:00', To: '13:00' },
      { From: '14:00', To: '18:00' },
    ];
    expect(refusal({ AvailabilityType: 'OPENING_HOURS', Schedules: [{ ...schedule, OpeningHours: hours }] })).toBe('accepted');
    expect(refusal({ AvailabilityType: 'OPENING_HOURS', Schedules: [{ ...schedule, Times: ['10:00'] }] })).toBe(
      'Products[0].Schedules[0].OpeningHours is required',
    );
    expect(refusal({ Schedules: [{ ...schedule, OpeningHours: hours }] })).toBe('Products[0].Schedules[0].Times is required');
    expect(refusal({ AvailabilityType: 'OPENING_HOURS', Schedules: [{ ...schedule, OpeningHours: [hours[1], hours[0]] }] })).toMatch(
      /OpeningHours\[1\]\.From must not be before the To of the range before it/,
    );
    expect(
      refusal({ AvailabilityType: 'OPENING_HOURS', Schedules: [{ ...schedule, OpeningHours: [{ From: '18:00', To: '10:00' }] }] }),
    ).toMatch(/OpeningHours\[0\]\.From must be before To/);
    expect(refusal({ AvailabilityType: 'OPENING_HOURS', Timeslots: [{ Date: '2026-07-01', Time: '10:00', Capacity: 5 }] })).toBe(
      'Products[0].Timeslots[0].OpeningHours is required',
    );
  });

  test("a day ticket's days are timeslots at 00:00 with their hours", () => {
    const { timeslots } = checkCatalog(
      {
        Products: [
          { ...base, AvailabilityType: 'OPENING_HOURS', Schedules: [{ ...schedule, OpeningHours: [{ From: '10:00', To: '18:00' }] }] },
        ],
      },
      'Europe/Lisbon',
    );
    expect(timeslots[0]).toEqual([{ Date: '2026-07-06', Time: '00:00', Capacity: 10, OpeningHours: [{ From: '10:00', To: '18:00' }] }]);
  });
});
