import { ConditionalCheckFailedException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '../core/errors';
import { RETRY, retrying } from '../core/retry';
import { documentClient, tableName } from '../db/client';
import * as dueKeys from '../db/due-keys';
import * as keys from '../db/keys';
import { transactionCancellation } from '../db/transaction-errors';
import type { SlotRow } from './one-off-timeslots';
import type { CancellationMarker, ProductItem, TimeslotItem } from './model';
import { getTimeslot } from './repository';
import {
  addedTimeslot,
  cancellationFinish,
  cancellationStart,
  operatorChange,
  type ChangeMark,
  type OperatorChange,
  type TimeslotUpdate,
} from './timeslot-writes';

/**
 * The operator's changes of its timeslots: a capacity, a close, a
 * reopening, each one conditional write of the timeslot (timeslot-writes.ts),
 * so none can race a booking into an overbooking; and one-off timeslots,
 * added all or none in one transaction. A refused change reads the
 * timeslot to say why, and is tried again when the timeslot has meanwhile
 * come to allow it.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface TimeslotAddress {
  operatorId: string;
  activityId: string;
  date: string;
  time: string;
}

export const noSuchTimeslotOf = ({ activityId, date, time }: Omit<TimeslotAddress, 'operatorId'>) =>
  new NotFoundError(`Activity ${activityId} has no timeslot on ${date} at ${time}`, { subject: 'timeslot', value: `${date} ${time}` });

/** A capacity below the places already taken (held and booked) would overbook the timeslot. */
export class CapacityBelowTakenError extends ConflictError {
  override readonly reason = 'capacity-below-taken';

  static of(slot: Pick<TimeslotItem, 'Date' | 'Time' | 'Booked'>, capacity: number): CapacityBelowTakenError {
    return new CapacityBelowTakenError(
      `is ${capacity}, below the ${slot.Booked} place(s) already taken (held or booked) on ${slot.Date} ${slot.Time}; nothing was changed`,
      { field: 'Capacity', extensions: { taken: slot.Booked } },
    );
  }
}

/** A timeslot whose bookings are being cancelled stays closed until every one is. */
export class CancellationInProgressError extends ConflictError {
  override readonly reason = 'cancellation-in-progress';

  static of(slot: Pick<TimeslotItem, 'Date' | 'Time' | 'Cancellation'>): CancellationInProgressError {
    return new CancellationInProgressError(
      `The timeslot ${slot.Date} ${slot.Time} cannot reopen while its bookings are being cancelled (since ${slot.Cancellation?.StartedAt}); the cancellation finishes within minutes`,
    );
  }
}

/** A one-off timeslot where the activity already has one: nothing was added. */
export class TimeslotExistsError extends ConflictError {
  override readonly reason = 'timeslot-exists';

  static of(activityId: string, slot: Pick<SlotRow, 'Date' | 'Time'>, field: string): TimeslotExistsError {
    return new TimeslotExistsError(`is ${slot.Date} ${slot.Time}, a timeslot activity ${activityId} already has, so nothing was added`, {
      field,
    });
  }
}

/** Why a change was refused, from the timeslot as it is now; RETRY when it now allows the change. */
function refusal(address: TimeslotAddress, slot: TimeslotItem | undefined, change: OperatorChange): Error | typeof RETRY {
  if (!slot) return noSuchTimeslotOf(address);
  if (change.capacity !== undefined && slot.Booked > change.capacity) return CapacityBelowTakenError.of(slot, change.capacity);
  if (change.closed === false && slot.Cancellation && !slot.Cancellation.FinishedAt) return CancellationInProgressError.of(slot);
  return RETRY;
}

/** One operator's change of one timeslot; the timeslot as the change left it. */
export function changeTimeslot(address: TimeslotAddress, change: OperatorChange, mark: ChangeMark): Promise<TimeslotItem> {
  const key = keys.timeslot(address.operatorId, address.activityId, address.date, address.time);
  return retrying('The timeslot change', async () => {
    try {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({ ...operatorChange(key, change, mark), ReturnValues: 'ALL_NEW' }),
      );
      return Attributes as TimeslotItem;
    } catch (error) {
      // A booking's transaction holding the timeslot at this moment: the change is tried again after it.
      if (error instanceof TransactionConflictException) return RETRY;
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    const why = refusal(address, await getTimeslot(address.operatorId, address.activityId, address.date, address.time), change);
    if (why === RETRY) return RETRY;
    throw why;
  });
}

/** How an addition ended: written, or to be tried again (the product's start times moved meanwhile, or contention). */
export type AddOutcome = 'added' | 'contended';

/**
 * Adds one-off timeslots to a product, all or none, in one transaction:
 * each only where the product has none (`field` names each as the request
 * did: an existing one is refused), the product's start times kept whole
 * (OCTo lists them). Safe to retry: a retry of an addition that was made
 * is refused, since its timeslots exist, and adds nothing twice.
 */
export async function addTimeslots(
  operatorId: string,
  product: Pick<ProductItem, 'ActivityID' | 'StartTimes' | 'AvailabilityType'>,
  rows: { row: SlotRow; field: string }[],
  mark: ChangeMark,
): Promise<AddOutcome> {
  const items: TransactItem[] = rows.map(({ row }) => ({
    Update: addedTimeslot(keys.timeslot(operatorId, product.ActivityID, row.Date, row.Time), row, mark),
  }));
  const before = product.StartTimes ?? [];
  const startTimes = [...new Set([...before, ...rows.map(({ row }) => row.Time)])].sort();
  if (product.AvailabilityType !== 'OPENING_HOURS' && startTimes.length !== before.length) {
    items.push({
      Update: {
        TableName: tableName(),
        Key: keys.product(operatorId, product.ActivityID),
        // A new start time changes the product partners see (OCTo's availabilityLocalStartTimes): one more on its Sequence.
        UpdateExpression: 'SET StartTimes = :times ADD #sequence :one',
        // Conditioned on the times read: an import or another addition meanwhile has them read and merged again.
        ConditionExpression: product.StartTimes ? 'StartTimes = :before' : 'attribute_exists(PK) AND attribute_not_exists(StartTimes)',
        ExpressionAttributeNames: { '#sequence': 'Sequence' },
        ExpressionAttributeValues: { ':times': startTimes, ':one': 1, ...(product.StartTimes ? { ':before': product.StartTimes } : {}) },
      },
    });
  }
  try {
    await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
    return 'added';
  } catch (error) {
    const cancellation = transactionCancellation(error);
    if (!cancellation) throw error;
    const taken = rows.findIndex((_, position) => cancellation.conditionFailed(position));
    if (taken >= 0) throw TimeslotExistsError.of(product.ActivityID, rows[taken].row, rows[taken].field);
    return 'contended';
  }
}

/**
 * Starts a cancellation of a timeslot with its bookings, in one
 * conditional write that closes it and marks it (timeslot-writes.ts), due
 * on the sweep `sweepAfterMs` later; false when the timeslot has another
 * cancellation in progress, or does not exist.
 */
export async function startCancellation(address: TimeslotAddress, marker: CancellationMarker, sweepAfterMs: number): Promise<boolean> {
  const due = dueKeys.timeslotCancellation(
    new Date(Date.parse(marker.StartedAt) + sweepAfterMs).toISOString(),
    address.operatorId,
    address.activityId,
    address.date,
    address.time,
  );
  return conditionally(cancellationStart(keys.timeslot(address.operatorId, address.activityId, address.date, address.time), marker, due));
}

/** Ends a cancellation once no place is taken on its timeslot; false while some still are (or it ended already). */
export const finishCancellation = (address: TimeslotAddress, startedAt: string, at: string): Promise<boolean> =>
  conditionally(cancellationFinish(keys.timeslot(address.operatorId, address.activityId, address.date, address.time), startedAt, at));

/** Runs an update whose condition may fail: false when it did, retried while a transaction holds the item. */
const conditionally = (update: TimeslotUpdate): Promise<boolean> =>
  retrying('The timeslot update', async () => {
    try {
      await documentClient().send(new UpdateCommand(update));
      return true;
    } catch (error) {
      if (error instanceof TransactionConflictException) return RETRY;
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  });
