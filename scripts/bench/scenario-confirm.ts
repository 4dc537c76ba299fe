import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { BookingItem } from '../../shared/booking/model';
import { createBooking } from '../../shared/booking/create-booking';
import { confirm } from '../../shared/booking/lifecycle';
import { changeTransaction, changed } from '../../shared/booking/transactions';
import { getProduct } from '../../shared/catalog/repository';
import { documentClient } from '../../shared/db/client';
import type { BenchContext, Scenario } from './scenario';
import { nextRequest } from './scenario-booking';
import { BOOKING_ACTIVITY } from './seed';

/**
 * Confirming holds: each call confirms a hold of its own, made before the
 * timed calls by the service's own createBooking (one pool per side), so
 * that every call is a real ON_HOLD → CONFIRMED write.
 */
const BOOKING_PATH = '/api/v2/ota/marketplace/booking';
const PARALLEL_SETUP = 16;

const pools: Record<'service' | 'bare', BookingItem[]> = { service: [], bare: [] };

/** Holds made beforehand (untimed), by the service's own code, `PARALLEL_SETUP` at a time: one per timed call. */
export async function pool(count: number, make: () => Promise<BookingItem>): Promise<BookingItem[]> {
  const made: BookingItem[] = [];
  const worker = async () => {
    while (made.length < count) made.push(await make());
  };
  await Promise.all(Array.from({ length: PARALLEL_SETUP }, worker));
  return made;
}

/** Marketplace holds, as written (with their Version: a confirmation is conditioned on it, as the service's is). */
export async function makeHolds(context: BenchContext, count: number): Promise<BookingItem[]> {
  const product = await getProduct(context.operatorId, BOOKING_ACTIVITY);
  if (!product) throw new Error(`The bench product ${BOOKING_ACTIVITY} was not seeded`);
  return pool(count, async () => {
    const { item } = await createBooking({
      operatorId: context.operatorId,
      timeZone: context.timeZone,
      channel: 'ota',
      partnerKeyId: context.keyId,
      product,
      request: nextRequest(context.firstDate, true),
      now: new Date(),
    });
    if (!item) throw new Error('A hold was answered without its item');
    return item;
  });
}

function take(side: 'service' | 'bare'): BookingItem {
  const hold = pools[side].pop();
  if (!hold) throw new Error(`The confirm scenario ran out of prepared holds (${side})`);
  return hold;
}

/** Holds for every call the run makes on each side: the warm-up, the timed calls and the one untimed call. */
export function confirmScenario(callsPerSide: number): Scenario {
  return {
    name: 'POST confirm',
    prepare: async (context) => {
      pools.service = await makeHolds(context, callsPerSide);
      pools.bare = await makeHolds(context, callsPerSide);
    },
    service: (context) => context.postAction(`${BOOKING_PATH}/${take('service').BookingReference}/confirm`, {}),
    bare: () => {
      const hold = take('bare');
      const now = new Date();
      const decision = confirm(hold, now);
      if ('stay' in decision) throw new Error(`The bench's hold ${hold.BookingReference} is confirmed already`);
      const next = changed(hold, { ...hold, Status: decision.to, ConfirmedAt: now.toISOString() }, now.toISOString());
      return documentClient().send(new TransactWriteCommand(changeTransaction(hold, next, decision.change).input));
    },
    bareNote:
      'bare = the conditional TransactWriteItems alone (the booking Update); the service first also reads the booking and ' +
      "the partner's webhook endpoint (two GetItems, side by side)",
  };
}
