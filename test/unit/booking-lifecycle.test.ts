import { BookingCancelledError, HoldExpiredError, NotOnHoldError, TimeslotStartedError } from '../../shared/booking/errors';
import { cancel, change, confirm, expire, extend, holdExpiry, holdLapsed, madeStatus, type Decision } from '../../shared/booking/lifecycle';
import type { BookingItem } from '../../shared/booking/model';

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

const booking = (status: BookingItem['Status'], slot: typeof ahead, extra: Partial<BookingItem> = {}) =>
  ({ BookingReference: 'K5DDMJMXFQ', Status: status, ...slot, ...extra }) as BookingItem;

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
    cases((item) => extend(item, now), {
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
