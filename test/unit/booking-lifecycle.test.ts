import {
  BookingCancelledError,
  HoldExpiredError,
  HoldLifeExceededError,
  NotOnHoldError,
  TimeslotStartedError,
} from '../../shared/booking/errors';
import { HOLD_LIFE_MINUTES } from '../../shared/booking/constants';
import {
  cancel,
  change,
  confirm,
  expire,
  extend,
  holdExpiry,
  holdLapsed,
  isLive,
  madeStatus,
  type Decision,
} from '../../shared/booking/lifecycle';
import type { BookingItem } from '../../shared/booking/model';
import { ValidationError } from '../../shared/core/errors';

/**
 * A booking's life decided with no I/O (shared/booking/lifecycle.ts): every
 * action from every state, allowed and refused. The states: a hold whose
 * time is not up, a hold whose time is up (not yet swept), a confirmed, a
 * cancelled and an expired booking, each with its timeslot ahead, and the
 * live ones also with their timeslot started.
 */

const TIME_ZONE = 'Europe/Lisbon';
const now = new Date('2026-07-01T08:00:00Z');
/** 10:00 in Lisbon (UTC+1 in July) on the day of `now`: starts at 09:00 UTC, an hour ahead. */
const ahead = { Date: '2026-07-01', Time: '10:00', StartsAt: '2026-07-01T10:00:00+01:00' };
/** 08:30 in Lisbon: started at 07:30 UTC, half an hour ago. */
const started = { Date: '2026-07-01', Time: '08:30', StartsAt: '2026-07-01T08:30:00+01:00' };

/** Every state's booking was made ten minutes before `now`. */
const MADE_AT = '2026-07-01T07:50:00.000Z';
const booking = (status: BookingItem['Status'], slot: typeof ahead, extra: Partial<BookingItem> = {}) =>
  ({ BookingReference: 'K5DDMJMXFQ', Status: status, CreatedAt: MADE_AT, ...slot, ...extra }) as BookingItem;

const STATES = {
  held: booking('ON_HOLD', ahead, { HoldExpiresAt: '2026-07-01T08:10:00.000Z' }),
  lapsed: booking('ON_HOLD', ahead, { HoldExpiresAt: '2026-07-01T08:00:00.000Z' }),
  confirmed: booking('CONFIRMED', ahead),
  cancelled: booking('CANCELLED', ahead, { CancelledAt: '2026-07-01T07:00:00.000Z' }),
  expired: booking('EXPIRED', ahead, { HoldExpiresAt: '2026-07-01T07:00:00.000Z' }),
  'held, started': booking('ON_HOLD', started, { HoldExpiresAt: '2026-07-01T08:10:00.000Z' }),
  'confirmed, started': booking('CONFIRMED', started),
  'cancelled, started': booking('CANCELLED', started, { CancelledAt: '2026-07-01T07:00:00.000Z' }),
};
type State = keyof typeof STATES;

/** The conditions the table holds a move to: the booking must still be as the decision saw it. */
const WHILE_HELD = { condition: '#status = :held AND HoldExpiresAt > :now', values: { ':held': 'ON_HOLD', ':now': now.toISOString() } };
const WHILE_LIVE = {
  condition: '#status = :confirmed OR (#status = :held AND HoldExpiresAt > :now)',
  values: { ':confirmed': 'CONFIRMED', ':held': 'ON_HOLD', ':now': now.toISOString() },
};
const WHILE_TAKING_PLACES = { condition: '#status IN (:held, :confirmed)', values: { ':held': 'ON_HOLD', ':confirmed': 'CONFIRMED' } };
const WHILE_DUE = { condition: '#status = :held AND HoldExpiresAt <= :now', values: { ':held': 'ON_HOLD', ':now': now.toISOString() } };

type Expected =
  | { stay: true }
  | { to: BookingItem['Status']; guard: { condition: string; values: Record<string, unknown> } }
  | { refused: new (...args: never[]) => Error };

/** What `decide` did: the decision, or the class of its refusal. */
function outcome(decide: () => Decision): Expected {
  try {
    const decision = decide();
    if ('stay' in decision) return decision;
    expect(decision.change.at).toBe(now.toISOString());
    return { to: decision.to, guard: { condition: decision.change.condition, values: decision.change.values } };
  } catch (error) {
    return { refused: (error as Error).constructor as new () => Error };
  }
}

const cases = (action: (item: BookingItem) => Decision, expected: Record<State, Expected>) =>
  Object.entries(expected).map(([state, expectation]) => [state, action, expectation] as const);

const check = (state: string, action: (item: BookingItem) => Decision, expected: Expected) =>
  expect({ state, outcome: outcome(() => action(STATES[state as State])) }).toEqual({ state, outcome: expected });

describe('confirm', () => {
  test.each(
    cases((item) => confirm(item, now), {
      held: { to: 'CONFIRMED', guard: WHILE_HELD },
      lapsed: { refused: HoldExpiredError },
      confirmed: { stay: true },
      cancelled: { refused: BookingCancelledError },
      expired: { refused: HoldExpiredError },
      'held, started': { to: 'CONFIRMED', guard: WHILE_HELD },
      'confirmed, started': { stay: true },
      'cancelled, started': { refused: BookingCancelledError },
    }),
  )('from %s', check);
});

describe('extend', () => {
  test.each(
    cases((item) => extend(item, now, 10), {
      held: { to: 'ON_HOLD', guard: WHILE_HELD },
      lapsed: { refused: HoldExpiredError },
      confirmed: { refused: NotOnHoldError },
      cancelled: { refused: BookingCancelledError },
      expired: { refused: HoldExpiredError },
      'held, started': { to: 'ON_HOLD', guard: WHILE_HELD },
      'confirmed, started': { refused: NotOnHoldError },
      'cancelled, started': { refused: BookingCancelledError },
    }),
  )('from %s', check);
});

describe("extend, within a hold's life", () => {
  const held = STATES.held;
  const minutesAfter = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();
  const lifeEnds = minutesAfter(MADE_AT, HOLD_LIFE_MINUTES);

  test(`moves the expiry to now plus the minutes asked, while that is within ${HOLD_LIFE_MINUTES} minutes of the hold being made`, () => {
    expect(extend(held, now, 30)).toMatchObject({ to: 'ON_HOLD', holdExpiresAt: minutesAfter(now.toISOString(), 30) });
    // The last minute of its life: asked exactly to its end.
    const late = new Date(Date.parse(lifeEnds) - 20 * 60_000);
    expect(extend({ ...held, HoldExpiresAt: minutesAfter(late.toISOString(), 5) }, late, 20).holdExpiresAt).toBe(lifeEnds);
  });

  test('refuses an extension past that, saying until when it may be held and how many minutes are left', () => {
    const late = new Date(Date.parse(lifeEnds) - 12 * 60_000);
    const hold = { ...held, HoldExpiresAt: minutesAfter(late.toISOString(), 5) };
    expect(() => extend(hold, late, 15)).toThrow(HoldLifeExceededError);
    expect(() => extend(hold, late, 15)).toThrow(
      `would hold booking 'K5DDMJMXFQ' until ${minutesAfter(late.toISOString(), 15)}, past ${lifeEnds}: a hold lasts at most ${HOLD_LIFE_MINUTES} minutes from when it was made (${MADE_AT}); ask for at most 12 minutes, or confirm it`,
    );
    // Without minutes, the default is asked for, and refused alike.
    expect(() => extend(hold, late, undefined)).toThrow(HoldLifeExceededError);
  });

  test('at the end of its life, a hold cannot be extended at all: it is confirmed or let go', () => {
    const last = new Date(Date.parse(lifeEnds) - 30_000);
    const hold = { ...held, HoldExpiresAt: lifeEnds };
    expect(() => extend(hold, last, 1)).toThrow(
      `Booking 'K5DDMJMXFQ' has been held for the longest a hold may last (${HOLD_LIFE_MINUTES} minutes from ${MADE_AT}, until ${lifeEnds}): confirm it, or let it go`,
    );
  });
});

describe('change (another timeslot, product, party or contact; a move)', () => {
  test.each(
    cases((item) => change(item, now, TIME_ZONE), {
      held: { to: 'ON_HOLD', guard: WHILE_LIVE },
      lapsed: { refused: HoldExpiredError },
      confirmed: { to: 'CONFIRMED', guard: WHILE_LIVE },
      cancelled: { refused: BookingCancelledError },
      expired: { refused: HoldExpiredError },
      'held, started': { refused: TimeslotStartedError },
      'confirmed, started': { refused: TimeslotStartedError },
      'cancelled, started': { refused: BookingCancelledError },
    }),
  )('from %s', check);

  test('a started timeslot refuses a change in words of a change, and a cancellation in words of a cancellation', () => {
    const startedAt = STATES['confirmed, started'].StartsAt;
    expect(() => change(STATES['confirmed, started'], now, TIME_ZONE)).toThrow(
      `can no longer be changed: its timeslot started at ${startedAt}`,
    );
    expect(() => cancel(STATES['confirmed, started'], now, { by: 'partner', timeZone: TIME_ZONE })).toThrow(
      `can no longer be cancelled: its timeslot started at ${startedAt}`,
    );
  });
});

describe('change with a new expiry of the hold', () => {
  test.each(
    cases((item) => change(item, now, TIME_ZONE, 20), {
      held: { to: 'ON_HOLD', guard: WHILE_LIVE },
      lapsed: { refused: HoldExpiredError },
      confirmed: { refused: ValidationError },
      cancelled: { refused: BookingCancelledError },
      expired: { refused: HoldExpiredError },
      'held, started': { refused: TimeslotStartedError },
      'confirmed, started': { refused: TimeslotStartedError },
      'cancelled, started': { refused: BookingCancelledError },
    }),
  )('from %s', check);

  test('a hold expires the minutes asked from now, within its life; a confirmed booking has no expiry to change', () => {
    expect(change(STATES.held, now, TIME_ZONE, 20)).toMatchObject({ to: 'ON_HOLD', holdExpiresAt: '2026-07-01T08:20:00.000Z' });
    expect(change(STATES.held, now, TIME_ZONE)).not.toHaveProperty('holdExpiresAt');
    // Five minutes before the end of its life (a hold on tomorrow's timeslot), ten more minutes are refused.
    const late = new Date(Date.parse(MADE_AT) + (HOLD_LIFE_MINUTES - 5) * 60_000);
    const tomorrow = { Date: '2026-07-02', Time: '10:00', StartsAt: '2026-07-02T10:00:00+01:00' };
    const lateHold = booking('ON_HOLD', tomorrow, { HoldExpiresAt: new Date(late.getTime() + 60_000).toISOString() });
    expect(() => change(lateHold, late, TIME_ZONE, 10)).toThrow(HoldLifeExceededError);
    expect(change(lateHold, late, TIME_ZONE, 5).holdExpiresAt).toBe(new Date(late.getTime() + 5 * 60_000).toISOString());
    expect(() => change(STATES.confirmed, now, TIME_ZONE, 20)).toThrow(
      expect.objectContaining({ field: 'HoldMinutes', message: 'applies to a hold only: the booking is confirmed' }),
    );
  });
});

describe('cancel by the partner', () => {
  test.each(
    cases((item) => cancel(item, now, { by: 'partner', timeZone: TIME_ZONE }), {
      held: { to: 'CANCELLED', guard: WHILE_TAKING_PLACES },
      lapsed: { to: 'CANCELLED', guard: WHILE_TAKING_PLACES },
      confirmed: { to: 'CANCELLED', guard: WHILE_TAKING_PLACES },
      cancelled: { stay: true },
      expired: { stay: true },
      'held, started': { refused: TimeslotStartedError },
      'confirmed, started': { refused: TimeslotStartedError },
      'cancelled, started': { stay: true },
    }),
  )('from %s', check);
});

describe('cancel by the operator', () => {
  test.each(
    cases((item) => cancel(item, now, { by: 'operator' }), {
      held: { to: 'CANCELLED', guard: WHILE_TAKING_PLACES },
      lapsed: { to: 'CANCELLED', guard: WHILE_TAKING_PLACES },
      confirmed: { to: 'CANCELLED', guard: WHILE_TAKING_PLACES },
      cancelled: { stay: true },
      expired: { stay: true },
      'held, started': { to: 'CANCELLED', guard: WHILE_TAKING_PLACES },
      'confirmed, started': { to: 'CANCELLED', guard: WHILE_TAKING_PLACES },
      'cancelled, started': { stay: true },
    }),
  )('from %s', check);
});

describe('expire (the sweep)', () => {
  test.each(
    cases((item) => expire(item, now), {
      held: { stay: true },
      lapsed: { to: 'EXPIRED', guard: WHILE_DUE },
      confirmed: { stay: true },
      cancelled: { stay: true },
      expired: { stay: true },
      'held, started': { stay: true },
      'confirmed, started': { stay: true },
      'cancelled, started': { stay: true },
    }),
  )('from %s', check);
});

describe('takes places (is live)', () => {
  // A hold whose time is up still takes its places until the sweep (or a confirmation or cancellation) moves it.
  const LIVE: Record<State, boolean> = {
    held: true,
    lapsed: true,
    confirmed: true,
    cancelled: false,
    expired: false,
    'held, started': true,
    'confirmed, started': true,
    'cancelled, started': false,
  };
  test.each(Object.entries(LIVE))('%s: %p', (state, live) => {
    expect(isLive(STATES[state as State])).toBe(live);
  });
});

describe('hold', () => {
  test('a booking is made held when it asks for a hold, else confirmed', () => {
    expect([madeStatus(true), madeStatus(false)]).toEqual(['ON_HOLD', 'CONFIRMED']);
  });

  test('a hold lasts the minutes asked for, the default without, and at most the longest hold', () => {
    expect(holdExpiry(now, 10)).toBe('2026-07-01T08:10:00.000Z');
    expect(holdExpiry(now, undefined)).toBe('2026-07-01T08:15:00.000Z');
    expect(holdExpiry(now, 60)).toBe('2026-07-01T09:00:00.000Z');
    expect(holdExpiry(now, 600)).toBe('2026-07-01T09:00:00.000Z');
  });

  test("a hold's time is up at its expiry, not a millisecond before", () => {
    const hold = { Status: 'ON_HOLD' as const, HoldExpiresAt: now.toISOString() };
    expect(holdLapsed(hold, new Date(now.getTime() - 1))).toBe(false);
    expect(holdLapsed(hold, now)).toBe(true);
    expect(holdLapsed({ ...hold, Status: 'CONFIRMED' }, now)).toBe(false);
  });
});
