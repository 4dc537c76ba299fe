import { randomUUID } from 'node:crypto';
import type { BookingItem } from '../../shared/booking/model';
import { reserve } from '../../shared/booking/reservations';
import { addDays } from '../../shared/core/calendar';
import { availabilityIdOf } from '../../shared/octo/render';
import { compare, fixed, printTable, ratio, type LoadOptions, type Stats } from './harness';
import type { BenchContext } from './scenario';
import { nextRequest } from './scenario-booking';
import { makeHolds, pool } from './scenario-confirm';
import { BOOKING_ACTIVITY } from './seed';

/**
 * OCTo beside the marketplace: each OCTo route against its marketplace
 * counterpart, both through the local host in the same run, in alternating
 * rounds, on the same data. The OCTo side renders more (a whole OCTo
 * availability or booking, prices with `octo/pricing`) over the same domain
 * calls; the ratio is what the second face costs.
 */
const P50_GOAL = 1.3;
const PRICING = { 'Octo-Capabilities': 'octo/pricing' };
const RANGE_DAYS = 31;

interface Pair {
  name: string;
  octo: string;
  marketplace: string;
  note?: string;
  prepare?: () => Promise<void>;
  run: { octo: () => Promise<unknown>; marketplace: () => Promise<unknown> };
}

function pairs(context: BenchContext, callsPerSide: number): Pair[] {
  const caller = { operatorId: context.operatorId, keyId: context.keyId, scopes: ['ota'], timeZone: context.timeZone };
  const day = addDays(context.firstDate, 1);
  const holds: Record<'octo' | 'marketplace', BookingItem[]> = { octo: [], marketplace: [] };
  const take = (side: 'octo' | 'marketplace') => {
    const hold = holds[side].pop();
    if (!hold) throw new Error(`The confirmation pair ran out of prepared holds (${side})`);
    return hold;
  };
  const reservationBody = () => {
    const request = nextRequest(context.firstDate);
    return {
      uuid: randomUUID(),
      productId: BOOKING_ACTIVITY,
      optionId: 'DEFAULT',
      availabilityId: availabilityIdOf(request, context.timeZone),
      unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }],
    };
  };
  return [
    {
      name: 'products',
      octo: 'GET /octo/products',
      marketplace: 'GET products',
      run: {
        octo: () => context.get('/octo/products', PRICING),
        marketplace: () => context.get('/api/v2/ota/marketplace/products'),
      },
    },
    {
      name: 'availability, 1 day',
      octo: 'POST /octo/availability (localDate)',
      marketplace: 'GET timeslots (1 day)',
      run: {
        octo: () =>
          context.postAction('/octo/availability', { productId: context.activityId, optionId: 'DEFAULT', localDate: day }, PRICING),
        marketplace: () => context.get(`/api/v2/ota/marketplace/availability/${context.activityId}/timeslots?Date=${day}`),
      },
    },
    {
      name: 'availability, 31 days',
      octo: 'POST /octo/availability/calendar',
      marketplace: 'GET dates (31 days)',
      run: {
        octo: () =>
          context.postAction(
            '/octo/availability/calendar',
            {
              productId: context.activityId,
              optionId: 'DEFAULT',
              localDateStart: context.firstDate,
              localDateEnd: addDays(context.firstDate, RANGE_DAYS - 1),
            },
            PRICING,
          ),
        marketplace: () =>
          context.get(
            `/api/v2/ota/marketplace/availability/${context.activityId}/dates?StartDate=${context.firstDate}&EndDate=${addDays(context.firstDate, RANGE_DAYS - 1)}`,
          ),
      },
    },
    {
      name: 'reservation',
      octo: 'POST /octo/bookings (with the reseller uuid)',
      marketplace: 'POST booking (Hold)',
      note: 'the OCTo side sends its own uuid, as resellers do, so it also reads whether that uuid names a booking (beside the product and timeslot reads)',
      run: {
        octo: () => context.postAction('/octo/bookings', reservationBody(), PRICING),
        marketplace: () => context.post('/api/v2/ota/marketplace/booking', nextRequest(context.firstDate, true)),
      },
    },
    {
      name: 'confirmation',
      octo: 'POST /octo/bookings/{uuid}/confirm',
      marketplace: 'POST confirm',
      note: 'each call confirms a hold of its own; the OCTo side gives a contact and its resellerReference (a second item in the transaction), the marketplace side a PaymentReference',
      prepare: async () => {
        holds.marketplace = await makeHolds(context, callsPerSide);
        holds.octo = await pool(callsPerSide, async () => {
          const request = nextRequest(context.firstDate);
          const { item } = await reserve(caller, {
            requestHash: randomUUID(),
            activityId: BOOKING_ACTIVITY,
            optionId: 'DEFAULT',
            slot: { Date: request.Date, Time: request.Time },
            unitItems: [{ UnitID: 'adult' }, { UnitID: 'adult' }],
            holdMinutes: 60,
          });
          return item;
        });
      },
      run: {
        octo: () =>
          context.postAction(
            `/octo/bookings/${take('octo').UUID}/confirm`,
            { resellerReference: `R-${randomUUID().slice(0, 8)}`, contact: { fullName: 'Ana Silva', emailAddress: 'ana@example.com' } },
            PRICING,
          ),
        marketplace: () =>
          context.postAction(`/api/v2/ota/marketplace/booking/${take('marketplace').BookingReference}/confirm`, {
            PaymentReference: 'pay_1',
          }),
      },
    },
  ];
}

/** Measures every pair and prints their p50s and ratios. */
export async function benchFaces(context: BenchContext, options: LoadOptions & { rounds: number }, only?: string[]): Promise<void> {
  const selected = pairs(context, options.warmup + options.calls + 1).filter(
    (pair) => !only || only.some((name) => `octo ${pair.name}`.includes(name)),
  );
  const results: { pair: Pair; stats: Record<'octo' | 'marketplace', Stats> }[] = [];
  for (const pair of selected) {
    await pair.prepare?.();
    results.push({ pair, stats: await compare(pair.run, options) });
  }
  console.log('\nOCTo beside the marketplace: the same domain through both faces, over HTTP, alternating rounds');
  printTable(
    ['pair', 'OCTo', 'p50 ms', 'marketplace', 'p50 ms', 'p50 ratio', 'p99 ratio', `≤${P50_GOAL}x`],
    results.map(({ pair, stats }) => {
      const p50 = stats.octo.p50 / stats.marketplace.p50;
      return [
        pair.name,
        pair.octo,
        fixed(stats.octo.p50),
        pair.marketplace,
        fixed(stats.marketplace.p50),
        ratio(p50),
        ratio(stats.octo.p99 / stats.marketplace.p99),
        p50 <= P50_GOAL ? 'yes' : 'no',
      ];
    }),
    ['left', 'left', 'right', 'left', 'right', 'right', 'right', 'left'],
  );
  for (const { pair } of results.filter((result) => result.pair.note)) console.log(`  ${pair.name}: ${pair.note}`);
}
