import type { CancellationMarker, TimeslotItem } from '../catalog/model';
import { getTimeslot } from '../catalog/repository';
import { finishCancellation, noSuchTimeslotOf, startCancellation, type TimeslotAddress } from '../catalog/timeslot-changes';
import { config } from '../core/config';
import { checkIdempotencyKey, expiresAt, hashIdempotencyKey, replayable, requestHash } from '../core/idempotency';
import { queryDueItems } from '../db/due-work';
import { RETRY, retrying } from '../core/retry';
import { partnerListens } from '../webhooks/events';
import { cancelBooking } from './cancellation';
import { IDEMPOTENCY_TTL_SECONDS } from './constants';
import { usedFor } from './create-booking';
import { isLive } from './lifecycle';
import type { BookingItem } from './model';
import { heldPlaces, toOperatorTimeslot, type TimeslotEditor } from './operator-timeslots';
import {
  cancellingNoted,
  getBooking,
  getBookings,
  getIdempotencyRecord,
  noteCancelling,
  putIdempotencyRecord,
  queryTimeslotBookings,
} from './repository';
import type { TimeslotCancellation } from './timeslot-schemas';

/**
 * Cancelling a timeslot (weather, a breakdown): it closes, and every held
 * and confirmed booking on it is cancelled with the operator's reason, each
 * by the one transition of an operator's cancellation (its places given
 * back, its partner sent `booking.cancelled` from the same transaction).
 *
 * A timeslot may hold thousands of bookings, more than one request can
 * cancel in its time, so the work is resumable. One conditional write first
 * closes the timeslot and marks the cancellation on it, due on the sweep a
 * minute later (nothing can be sold on it from then on). The bookings are
 * then cancelled page by page, each page noted before it is cancelled, so
 * the answer lists them whoever finished the work. Whoever comes next (the
 * same request sent again, or the one-minute sweep) carries on from
 * whatever is still live. The cancellation ends by one more conditional
 * write that holds only once no place is taken on the timeslot.
 */

/** Live bookings read per page of the manifest's index. */
const PAGE = 100;
/** Bookings cancelled at once: each transaction also updates the timeslot, so more would only contend for it. */
const CONCURRENCY = 8;
/** What a request keeps of its function's time to read and answer what it did, once it stops cancelling. */
const ANSWER_MS = 3_000;
/** The sweep gives the cancellations it carries on this long in one run (it runs every minute, for at most 50 s, holds first). */
const SWEEP_BUDGET_MS = 30_000;
/** A cancellation is due on the sweep this long after it started, unless its request has finished it. */
const SWEEP_AFTER_MS = 60_000;
/** Passes over the index once it seems empty while places are still taken: the index catches up within a second. */
const INDEX_PASSES = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface CancelWork {
  now?: Date;
  /**
   * Asked before each group of bookings is cancelled; false stops the work
   * there, to be carried on by a retry or the sweep (whileTimeLeft: until
   * the request's time is up). By default the work goes on to the end.
   */
  proceed?: () => boolean;
}

const until = (budgetMs: number) => {
  const deadline = Date.now() + budgetMs;
  return () => Date.now() < deadline;
};

/** Goes on while the request has time to answer after: `remainingMs` tells what is left of its function's time (Lambda's context counts it down). */
export const whileTimeLeft = (remainingMs: () => number) => () => remainingMs() > ANSWER_MS;

/** Whether each partner listens, read once per partner however many of its bookings are cancelled. */
function listenersOf(operatorId: string) {
  const known = new Map<string, Promise<boolean>>();
  return (booking: BookingItem): Promise<boolean | undefined> => {
    const keyId = booking.PartnerKeyID;
    if (!keyId) return Promise.resolve(undefined);
    if (!known.has(keyId)) known.set(keyId, partnerListens({ operatorId, keyId }, 'booking.cancelled'));
    return known.get(keyId) as Promise<boolean>;
  };
}

/**
 * Cancels what is still live on the timeslot, then ends the cancellation;
 * true once it has ended, false when `proceed` stopped it or the index has
 * not yet caught up with the places taken (the next attempt carries on).
 */
async function carryOn(address: TimeslotAddress, marker: CancellationMarker, proceed: () => boolean, now: Date): Promise<boolean> {
  const cancellation = { ...address, startedAt: marker.StartedAt };
  const slot = { ActivityID: address.activityId, Date: address.date, Time: address.time };
  const listens = listenersOf(address.operatorId);
  const cancelOne = async (booking: BookingItem) => {
    const read = async () => (await getBooking(address.operatorId, booking.BookingReference)) ?? booking;
    await cancelBooking(booking, {
      canceller: { by: 'operator' },
      reason: marker.Reason,
      now,
      read,
      listens: await listens(booking),
      onTimeslot: slot,
    });
  };
  for (let pass = 0; pass < INDEX_PASSES; pass += 1) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await queryTimeslotBookings(address, PAGE, startKey);
      const live = page.items.filter(isLive);
      if (live.length)
        await noteCancelling(
          cancellation,
          live.map((booking) => booking.BookingReference),
        );
      for (let start = 0; start < live.length; start += CONCURRENCY) {
        if (!proceed()) return false;
        await Promise.all(live.slice(start, start + CONCURRENCY).map(cancelOne));
      }
      startKey = page.nextKey;
    } while (startKey);
    if (await finishCancellation(address, marker.StartedAt, now.toISOString())) return true;
    const current = await getTimeslot(address.operatorId, address.activityId, address.date, address.time);
    if (current?.Cancellation?.StartedAt !== marker.StartedAt || current.Cancellation.FinishedAt) return true;
    await sleep(100 * 2 ** pass);
  }
  return false;
}

/** The cancellation as its answer tells it: the timeslot now, and the bookings this cancellation cancelled. */
async function answerOf(address: TimeslotAddress, marker: CancellationMarker, timeZone: string): Promise<TimeslotCancellation> {
  const cancellation = { ...address, startedAt: marker.StartedAt };
  const [slot, noted, held] = await Promise.all([
    getTimeslot(address.operatorId, address.activityId, address.date, address.time),
    cancellingNoted(cancellation),
    heldPlaces(address.operatorId, address.activityId, address.date),
  ]);
  if (!slot) throw noSuchTimeslotOf(address);
  // A noted booking that was cancelled otherwise (by its partner, or moved away and cancelled later) is not this cancellation's.
  const cancelled = (await getBookings(address.operatorId, noted)).filter(
    (booking) =>
      booking.Status === 'CANCELLED' &&
      booking.CancelledBy === 'operator' &&
      booking.CancellationReason === marker.Reason &&
      (booking.CancelledAt ?? '') >= marker.StartedAt,
  );
  return {
    Timeslot: toOperatorTimeslot(address.activityId, slot, held.get(address.time) ?? 0, timeZone),
    CancelledBookings: cancelled.map((booking) => booking.BookingReference).sort(),
  };
}

/**
 * The cancellation to work on: the one in progress on the timeslot; else
 * the last one, when it has ended and the timeslot stayed closed since
 * (nothing can have been sold on it: the request is answered again); else
 * a new one, started now.
 */
async function cancellationFor(address: TimeslotAddress, reason: string, by: string, now: Date): Promise<CancellationMarker> {
  return retrying('The start of the cancellation', async () => {
    const slot: TimeslotItem | undefined = await getTimeslot(address.operatorId, address.activityId, address.date, address.time);
    if (!slot) throw noSuchTimeslotOf(address);
    const last = slot.Cancellation;
    if (last && (!last.FinishedAt || (slot.Closed && (slot.ReopenedAt ?? '') < last.FinishedAt))) return last;
    const marker: CancellationMarker = {
      Reason: reason,
      By: by,
      StartedAt: now.toISOString(),
      OperatorID: address.operatorId,
      ActivityID: address.activityId,
    };
    // Refused when another cancellation started meanwhile: read again and carry on with that one.
    return (await startCancellation(address, marker, SWEEP_AFTER_MS)) ? marker : RETRY;
  });
}

/**
 * Closes a timeslot and cancels its bookings, or carries on with a
 * cancellation a stopped request left. While bookings remain (the work
 * stopped), the answer's `Timeslot.Cancellation.Complete` is false.
 */
export async function cancelTimeslot(
  editor: TimeslotEditor,
  slot: { activityId: string; date: string; time: string },
  reason: string,
  work: CancelWork = {},
): Promise<TimeslotCancellation> {
  const now = work.now ?? config().clock();
  const address = { operatorId: editor.operatorId, ...slot };
  const marker = await cancellationFor(address, reason, editor.by, now);
  if (!marker.FinishedAt) await carryOn(address, marker, work.proceed ?? (() => true), now);
  return answerOf(address, marker, editor.timeZone);
}

/**
 * POST /api/v2/timeslots/{ActivityID}/{Date}/{Time}/cancel. With an
 * Idempotency-Key, a complete answer is kept for 24 hours and given again
 * to the same request, even once the timeslot has reopened and sold again
 * (without one, a retry after a reopening would cancel the new bookings).
 */
export async function cancelTimeslotOnce(
  editor: TimeslotEditor,
  slot: { activityId: string; date: string; time: string },
  reason: string,
  idempotencyKey: string | undefined,
  work: CancelWork = {},
): Promise<{ answer: TimeslotCancellation; replayed: boolean }> {
  const now = work.now ?? config().clock();
  if (idempotencyKey === undefined) return { answer: await cancelTimeslot(editor, slot, reason, { ...work, now }), replayed: false };
  checkIdempotencyKey(idempotencyKey);
  const key = { keyId: editor.by, keyHash: hashIdempotencyKey(idempotencyKey) };
  const hash = requestHash({ ActivityID: slot.activityId, Date: slot.date, Time: slot.time, Reason: reason });
  const earlier = replayable(await getIdempotencyRecord(editor.operatorId, key.keyId, key.keyHash), { requestHash: hash }, now, usedFor);
  if (earlier) return { answer: JSON.parse(earlier.Response) as TimeslotCancellation, replayed: true };
  const answer = await cancelTimeslot(editor, slot, reason, { ...work, now });
  if (answer.Timeslot.Cancellation?.Complete) {
    await putIdempotencyRecord(
      editor.operatorId,
      key,
      {
        RequestHash: hash,
        Of: `the cancellation of timeslot ${slot.activityId} ${slot.date} ${slot.time}`,
        Response: JSON.stringify(answer),
        CreatedAt: now.toISOString(),
        ExpiresAt: expiresAt(now, IDEMPOTENCY_TTL_SECONDS),
      },
      now,
    );
  }
  return { answer, replayed: false };
}

/** Cancellations the sweep reads at most per run; what is left is due on the next. */
const SWEEP_PAGE = 25;

/** The sweep: carries on with every cancellation due (left by a request that stopped); how many it finished. */
export async function finishDueCancellations(now: Date = config().clock()): Promise<number> {
  const proceed = until(SWEEP_BUDGET_MS);
  let finished = 0;
  for (const slot of await queryDueItems<TimeslotItem>('TIMESLOT', now.toISOString(), SWEEP_PAGE)) {
    const marker = slot.Cancellation;
    if (!marker || marker.FinishedAt || !proceed()) continue;
    const address = { operatorId: marker.OperatorID, activityId: marker.ActivityID, date: slot.Date, time: slot.Time };
    if (await carryOn(address, marker, proceed, now)) finished += 1;
  }
  return finished;
}
