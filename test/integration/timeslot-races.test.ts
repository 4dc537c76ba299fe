import { recordOperatorBooking } from '../../shared/booking/operator-bookings';
import { getBookings } from '../../shared/booking/repository';
import { getTimeslot } from '../../shared/catalog/repository';
import { availabilityId, octoWorld } from '../support/octo';

/**
 * The operator's changes racing sales on every channel, through real
 * concurrent HTTP requests (and the operator's own sales beside them): each
 * change is one conditional write of the timeslot, so whichever commits
 * first, the places taken are exactly the sales answered as made, never
 * more than the capacity, and nothing is sold once a close is answered.
 */
const { world, day } = octoWorld();
const TIMESLOTS = '/api/v2/timeslots';
const customer = { FirstName: 'Vera', LastName: 'Moura', Email: 'vera@example.com' };

/** One sale of one place on s_walk1's 09:00, by the marketplace, OCTo or the operator's till, in turn; true when it was made. */
function sale(date: string, index: number): Promise<boolean> {
  const { request, operator, octo } = world;
  switch (index % 3) {
    case 0:
      return request('POST', '/api/v2/ota/marketplace/booking', {
        key: operator.key,
        body: { ActivityID: 's_walk1', Date: date, Time: '09:00', Participants: 1, Customer: customer },
      }).then((response) => response.status === 201);
    case 1:
      return octo('POST', '/bookings', {
        productId: 's_walk1',
        optionId: 'DEFAULT',
        availabilityId: availabilityId(date, '09:00'),
        unitItems: [{ unitId: 'adult' }],
      }).then((response) => response.status === 200);
    default:
      return recordOperatorBooking(operator.operatorId, {
        Channel: 'pos',
        ActivityID: 's_walk1',
        Date: date,
        Time: '09:00',
        Participants: 1,
        Customer: customer,
      }).then(
        () => true,
        () => false,
      );
  }
}

/** Fires `count` sales at once and `change` among them (once the first is answered), and waits for all of them. */
async function race<T>(date: string, count: number, change: () => Promise<T>): Promise<{ made: number; changed: T }> {
  const sales = Array.from({ length: count }, (_, index) => sale(date, index));
  await Promise.race(sales);
  const changed = await change();
  const made = (await Promise.all(sales)).filter(Boolean).length;
  return { made, changed };
}

const stored = async (date: string) => (await getTimeslot(world.operator.operatorId, 's_walk1', date, '09:00'))!;

describe('changes racing sales', () => {
  it.each([1, 2, 3])(
    'a close racing sales on three channels (round %i): every place taken was answered as sold, and none is sold after',
    async (round) => {
      const date = day(round);
      const { made, changed } = await race(date, 16, () =>
        world.request('PATCH', `${TIMESLOTS}/s_walk1/${date}/09:00`, { key: world.operator.key, body: { Closed: true, Reason: 'Race' } }),
      );
      expect(changed.status).toBe(200);
      const slot = await stored(date);
      expect(slot.Booked).toBe(made);
      expect(slot.Booked).toBeLessThanOrEqual(slot.Capacity);
      expect(slot.Vacancies).toBe(slot.Capacity - slot.Booked);
      expect(await Promise.all([0, 1, 2].map((index) => sale(date, index)))).toEqual([false, false, false]);
      expect((await stored(date)).Booked).toBe(made);
    },
  );

  it.each([4, 5, 6])('a capacity cut racing 25 sales of 20 places (day %i) never overbooks, whichever commits first', async (offset) => {
    const date = day(offset);
    const { made, changed } = await race(date, 25, () =>
      world.request('PATCH', `${TIMESLOTS}/s_walk1/${date}/09:00`, { key: world.operator.key, body: { Capacity: 12 } }),
    );
    const slot = await stored(date);
    expect(slot.Booked).toBe(made);
    expect(slot.Booked).toBeLessThanOrEqual(slot.Capacity);
    expect(slot.Vacancies).toBe(slot.Capacity - slot.Booked);
    if (changed.status === 200) expect(slot.Capacity).toBe(12);
    else {
      expect(changed.status).toBe(409);
      expect(slot.Capacity).toBe(20);
      expect(changed.json.taken).toBeGreaterThan(12);
    }
  });

  it('a cancellation racing sales leaves no place taken: every sale made before the close is cancelled, none after', async () => {
    const date = day(7);
    const { made, changed } = await race(date, 30, () =>
      world.request('POST', `${TIMESLOTS}/s_walk1/${date}/09:00/cancel`, { key: world.operator.key, body: { Reason: 'Race' } }),
    );
    expect(changed.status).toBe(200);
    const slot = await stored(date);
    expect(slot).toMatchObject({ Booked: 0, Vacancies: slot.Capacity, Closed: true });
    expect(slot.Cancellation?.FinishedAt).toBeDefined();
    // A sale answered after the cancellation may still have committed before its close: the cancellation ends only once no place is taken.
    const cancelled = changed.json.data.CancelledBookings as string[];
    expect(cancelled).toHaveLength(made);
    const bookings = await getBookings(world.operator.operatorId, cancelled);
    expect(bookings.every((booking) => booking.Status === 'CANCELLED' && booking.CancellationReason === 'Race')).toBe(true);
  });
});
