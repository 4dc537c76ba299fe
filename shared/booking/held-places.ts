import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_HOLD_CAPS, type HoldCaps } from '../accounts/hold-caps';
import { unixSeconds } from '../core/clock';
import { tableName } from '../db/client';
import * as holdKeys from '../db/hold-keys';
import type { ItemKey } from '../db/keys';
import { HoldCapError } from './errors';
import type { BookingItem } from './model';

/**
 * The places a partner key holds at once, counted exactly: a counter of the
 * key's held places in all and one per timeslot, each changed by the very
 * transaction that takes places for a hold or gives them back (confirm,
 * cancel, expire, a move or another party), with a condition when it grows
 * (at most the key's cap, its caps a value the condition compares, since a
 * condition cannot add two attributes). So however many holds race, a key
 * never holds more than its caps. A booking counts while it is ON_HOLD and
 * was counted when it became so (HoldCounted): holds made before the count
 * existed are given back without touching it.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A partner's booking ON_HOLD is counted against its key's caps. */
export const countsAsHeld = (booking: Pick<BookingItem, 'Status' | 'PartnerKeyID'>): boolean =>
  booking.Status === 'ON_HOLD' && booking.PartnerKeyID !== undefined;

/** One counter a booking's write changes: by how much, and the cap it may not pass when it grows. */
export interface HeldPlacesChange {
  keyId: string;
  key: ItemKey;
  delta: number;
  cap: number;
  /** The timeslot of a timeslot's counter; absent for the key's counter in all. */
  timeslot?: Pick<BookingItem, 'ActivityID' | 'Date' | 'Time'>;
  /** A timeslot's counter is of no use a day after the timeslot: TTL removes it then (Unix seconds). */
  expiresAt?: number;
}

const held = (booking: BookingItem | undefined) =>
  booking?.HoldCounted && countsAsHeld(booking) ? { keyId: booking.PartnerKeyID as string, booking } : undefined;

const DAY_SECONDS = 24 * 60 * 60;

/**
 * What a write from `before` (none for a new booking) to `after` does to the
 * counters of the key's held places: the places it held go back, the places
 * it holds are taken, on its timeslot and in all; nothing for a counter that
 * does not change.
 */
export function heldPlacesChanges(
  before: BookingItem | undefined,
  after: BookingItem,
  caps: HoldCaps = DEFAULT_HOLD_CAPS,
): HeldPlacesChange[] {
  const [was, is] = [held(before), held(after)];
  const keyId = (is ?? was)?.keyId;
  if (!keyId) return [];
  const operatorId = after.OperatorID;
  const places = (holding: typeof was) => holding?.booking.Participants ?? 0;
  const deltas = new Map<string, HeldPlacesChange>();
  const add = (change: Omit<HeldPlacesChange, 'keyId'>) => {
    const id = `${change.key.PK}|${change.key.SK}`;
    const known = deltas.get(id);
    deltas.set(id, known ? { ...known, delta: known.delta + change.delta } : { ...change, keyId });
  };
  add({ key: holdKeys.total(operatorId, keyId), delta: places(is) - places(was), cap: caps.total });
  for (const [holding, sign] of [
    [was, -1],
    [is, 1],
  ] as const) {
    if (!holding) continue;
    const { ActivityID, Date: date, Time, StartsAt } = holding.booking;
    add({
      key: holdKeys.timeslot(operatorId, keyId, ActivityID, date, Time),
      delta: sign * holding.booking.Participants,
      cap: caps.perTimeslot,
      timeslot: { ActivityID, Date: date, Time },
      expiresAt: unixSeconds(new Date(StartsAt)) + DAY_SECONDS,
    });
  }
  const changes = [...deltas.values()].filter((change) => change.delta !== 0);
  // More than a cap at once can never fit, whatever the key holds: refused before anything is written.
  const tooMany = changes.find((change) => change.delta > change.cap);
  if (tooMany) throw HoldCapError.of({ ...tooMany, asked: tooMany.delta });
  return changes;
}

/** A counter's update in the write's transaction: ADD its delta, and while it grows, only if it stays within its cap. */
export function heldPlacesUpdate(change: HeldPlacesChange): TransactItem {
  const grows = change.delta > 0;
  return {
    Update: {
      TableName: tableName(),
      Key: change.key,
      UpdateExpression: `ADD Places :delta SET Entity = :entity${change.expiresAt ? ', ExpiresAt = :expires' : ''}`,
      ExpressionAttributeValues: {
        ':delta': change.delta,
        ':entity': 'HeldPlaces',
        ...(change.expiresAt ? { ':expires': change.expiresAt } : {}),
        ...(grows ? { ':room': change.cap - change.delta } : {}),
      },
      ...(grows
        ? { ConditionExpression: 'attribute_not_exists(Places) OR Places <= :room', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }
        : {}),
    },
  };
}

/** The refusal of a write whose counter `change` found the key holding `heldNow` places. */
export const capReached = (change: HeldPlacesChange, heldNow: number): HoldCapError =>
  HoldCapError.of({ ...change, held: heldNow, asked: change.delta });
