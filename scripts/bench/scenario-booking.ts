import { randomUUID } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { bookingItem, idempotencyRecord } from '../../shared/booking/create-booking';

import { hashIdempotencyKey, requestHash } from '../../shared/core/idempotency';
import type { BookingRequest } from '../../shared/booking/schemas';
import { newBookingReference } from '../../shared/booking/reference';
import { bookingTransaction, type BookingWrite } from '../../shared/booking/transactions';
import type { ProductItem } from '../../shared/catalog/model';
import { getProduct } from '../../shared/catalog/repository';
import { documentClient } from '../../shared/db/client';
import { addDays } from '../../shared/core/calendar';
import type { BenchContext, Scenario } from './scenario';
import { BOOKING_ACTIVITY, BOOKING_DAYS, BOOKING_TIMES } from './seed';

const BOOKING_PATH = '/api/v2/ota/marketplace/booking';
const SLOTS = BOOKING_DAYS * BOOKING_TIMES.length;

/**
 * Bookings take the booked product's timeslots in turn, on both sides alike,
 * so the calls in flight at one moment never update the same timeslot item:
 * the figures are those of the write, not of contention and its retries.
 */
let taken = 0;

/** The next request, taking the next timeslot in turn; a hold when `hold` is set. */
export function nextRequest(firstDate: string, hold = false): BookingRequest {
  const slot = taken % SLOTS;
  taken += 1;
  return {
    ActivityID: BOOKING_ACTIVITY,
    Date: addDays(firstDate, Math.floor(slot / BOOKING_TIMES.length)),
    Time: BOOKING_TIMES[slot % BOOKING_TIMES.length],
    Participants: 2,
    Customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana.silva@example.com', Phone: '+351912345678' },
    PaymentReference: `pay_${taken}`,
    // Every required waiver question answered: the answers are checked and stored, as a complete booking's are.
    Answers: [
      { QuestionID: 'q_name', Value: 'Ana Silva' },
      { QuestionID: 'q_level', Value: 'Moderate' },
      { QuestionID: 'q_waiver', Value: 'https://partner.example.com/waivers/ana-silva.pdf' },
    ],
    ...(hold ? { Hold: { ExpiresInMinutes: 60 } } : {}),
  };
}

/** The product the bare side prices and names its bookings from, read once before the timed calls. */
let product: ProductItem | undefined;

/** The write the service makes for this request, built by the same functions, with the record of a fresh key when `withKey`. */
function bareWrite(context: BenchContext, withKey: boolean, hold: boolean): BookingWrite {
  if (!product) throw new Error('The booking scenario was not prepared');
  const request = nextRequest(context.firstDate, hold);
  const now = new Date();
  const newBooking = {
    operatorId: context.operatorId,
    timeZone: context.timeZone,
    channel: 'ota' as const,
    partnerKeyId: context.keyId,
    product,
    request,
    now,
  };
  const booking = bookingItem(newBooking, newBookingReference(), 'COMPLETE');
  if (!withKey) return { booking };
  const record = idempotencyRecord(booking, requestHash(request), now);
  return { booking, idempotency: { keyId: context.keyId, keyHash: hashIdempotencyKey(randomUUID()), record, now } };
}

function bookingScenario(withKey: boolean, hold = false): Scenario {
  return {
    name: hold ? 'POST booking (Hold)' : withKey ? 'POST booking (Idempotency-Key)' : 'POST booking',
    service: (context) =>
      context.post(BOOKING_PATH, nextRequest(context.firstDate, hold), withKey ? { 'Idempotency-Key': randomUUID() } : undefined),
    bare: (context) => documentClient().send(new TransactWriteCommand(bookingTransaction(bareWrite(context, withKey, hold)).input)),
    prepare: async ({ operatorId }) => {
      product = await getProduct(operatorId, BOOKING_ACTIVITY);
      if (!product) throw new Error(`The bench product ${BOOKING_ACTIVITY} was not seeded`);
    },
    bareNote: withKey
      ? 'bare = the TransactWriteItems alone (timeslot Update, booking Put, idempotency Put); ' +
        'the service first also reads the idempotency record and the product (two GetItems)'
      : 'bare = the TransactWriteItems alone (timeslot Update, booking Put); the service first also reads the product (one GetItem)',
  };
}

/** Without Idempotency-Key: a transaction of two items. */
export const createBookingScenario = bookingScenario(false);
/** With a fresh Idempotency-Key per call: three items, the record included, and the key looked up first. */
export const createBookingWithKeyScenario = bookingScenario(true);
/** A hold: the same two-item transaction, the booking ON_HOLD and entered in the index of holds by expiry. */
export const createHoldScenario = bookingScenario(false, true);
