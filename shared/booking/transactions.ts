import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unixSeconds } from '../core/clock';
import { tableName } from '../db/client';
import { givePlacesBack as placesGivenBack, takePlaces as placesTaken } from '../catalog/timeslot-writes';
import * as bookingKeys from '../db/booking-keys';
import * as keys from '../db/keys';
import { besideItems, besidePut, dueEntry, manifestEntry, partnerDayEntry, uuidEntryPut } from './booking-indexes';
import type { DeliveryItem } from '../webhooks/model';
import { deliveryPut } from '../webhooks/repository';
import { isLive, type Change } from './lifecycle';
import type { HoldCaps } from '../accounts/hold-caps';
import { countsAsHeld, heldPlacesChanges, heldPlacesUpdate, type HeldPlacesChange } from './held-places';
import type { BookingItem, IdempotencyRecord } from './model';

/**
 * The transactions of a booking's life. Places are taken with a conditional
 * update of the timeslot in the same transaction that writes the booking,
 * and given back or moved in the same transaction that changes the booking:
 * every change of a booking is conditioned on the version it was decided
 * from (and on its status), so each happens once however many requests and
 * sweeps race. Nothing is read first. An event for the partner (a webhook
 * delivery) is written in the transaction of its change.
 */

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
type TransactItem = TransactItems[number];

/** The booking's update comes first in every change. */
export const TRANSITION_BOOKING_ITEM = 0;

export interface BookingWrite {
  booking: BookingItem;
  idempotency?: { keyId: string; keyHash: string; record: IdempotencyRecord; now: Date };
  /** The partner key's caps on held places, for a hold (the defaults when absent). */
  holdCaps?: HoldCaps;
}

/** A counter of a key's held places that grows in a transaction, and where: its condition may refuse the write. */
export interface HeldPlacesCheck {
  position: number;
  change: HeldPlacesChange;
}

/** The counters of the key's held places a write changes, appended to its items; those that grow are checks to read a refusal by. */
function countHeldPlaces(items: TransactItems, before: BookingItem | undefined, after: BookingItem, caps?: HoldCaps): HeldPlacesCheck[] {
  return heldPlacesChanges(before, after, caps).flatMap((change) => {
    const position = items.push(heldPlacesUpdate(change)) - 1;
    return change.delta > 0 ? [{ position, change }] : [];
  });
}

const timeslotKey = (booking: BookingItem) => keys.timeslot(booking.OperatorID, booking.ActivityID, booking.Date, booking.Time);

/** Places are taken with the old image returned, which tells a missing timeslot from a full or closed one. */
const takePlaces = (key: ReturnType<typeof timeslotKey>, places: number, at: string): TransactItem => ({
  Update: { ...placesTaken(key, places, at), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' },
});

const givePlacesBack = (key: ReturnType<typeof timeslotKey>, places: number, at: string): TransactItem => ({
  Update: placesGivenBack(key, places, at),
});

/** The transaction of one new booking, with where its conditioned items are, to read a cancellation by. */
export interface BookingTransaction {
  input: TransactWriteCommandInput;
  at: { timeslot: number; booking: number; idempotency?: number; uuid?: number; heldPlaces: HeldPlacesCheck[] };
}

/** One new booking, held or confirmed (exported so the benchmark can run the same shape bare). */
export function bookingTransaction({ booking, idempotency, holdCaps }: BookingWrite): BookingTransaction {
  const operatorId = booking.OperatorID;
  const items: TransactItems = [
    takePlaces(timeslotKey(booking), booking.Participants, booking.CreatedAt),
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...bookingKeys.booking(operatorId, booking.BookingReference),
          ...bookingKeys.bookingListEntry(operatorId, booking.CreatedAt, booking.BookingReference),
          ...manifestEntry(booking),
          ...dueEntry(booking),
          ...partnerDayEntry(booking),
          Entity: 'Booking',
          ...booking,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ];
  const at: BookingTransaction['at'] = { timeslot: 0, booking: 1, heldPlaces: [] };
  if (idempotency) {
    at.idempotency =
      items.push({
        Put: {
          TableName: tableName(),
          Item: {
            ...bookingKeys.idempotencyRecord(operatorId, idempotency.keyId, idempotency.keyHash),
            Entity: 'IdempotencyRecord',
            ...idempotency.record,
          },
          // A record that has expired but not yet been swept by TTL no longer holds its key.
          ConditionExpression: 'attribute_not_exists(PK) OR ExpiresAt <= :now',
          ExpressionAttributeValues: { ':now': unixSeconds(idempotency.now) },
        },
      }) - 1;
  }
  const uuidEntry = uuidEntryPut(booking);
  if (uuidEntry) at.uuid = items.push(uuidEntry) - 1;
  items.push(...besideItems(booking).map((item) => besidePut(booking, item)));
  at.heldPlaces = countHeldPlaces(items, undefined, booking, holdCaps);
  return { input: { TransactItems: items }, at };
}

/** The attributes a change may set or remove; keys and indexes follow from them. */
const CHANGEABLE = [
  'Status',
  'ActivityID',
  'ProductID',
  'ActivityName',
  'Date',
  'Time',
  'StartsAt',
  'EndsAt',
  'OpeningHours',
  'Participants',
  'Units',
  'UnitItems',
  'TotalPrice',
  'Customer',
  'Contact',
  'Notes',
  'ResellerReference',
  'WaiverStatus',
  'Answers',
  'PaymentReference',
  'HoldExpiresAt',
  'ConfirmedAt',
  'ExpiredAt',
  'CancelledAt',
  'CancelledBy',
  'CancellationReason',
  'HoldCounted',
  'RequestHash',
  'ErasedAt',
  'ErasedBy',
] as const satisfies readonly (keyof BookingItem)[];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The booking as a change leaves it: one version on, updated at `at`; a hold
 * counted in its key's held places stays counted while it is held (a hold
 * made before the count existed never joins it).
 */
export const changed = (current: BookingItem, next: Omit<BookingItem, 'Version' | 'UpdatedAt'>, at: string): BookingItem => ({
  ...next,
  HoldCounted: (countsAsHeld(next) && current.HoldCounted) || undefined,
  Version: (current.Version ?? 0) + 1,
  UpdatedAt: at,
});

/** Where a change's transaction may fail on a timeslot that had too few places, to read the outcome by. */
export interface ChangeTransaction {
  input: TransactWriteCommandInput;
  /** The position of the update that takes places, when the change takes any. */
  takesAt?: number;
  /** The counters of the key's held places the change grows. */
  heldPlaces: HeldPlacesCheck[];
}

/**
 * The one transaction of a change to an existing booking, from what it is
 * (`current`, as read) to what it becomes (`next`): the booking's update,
 * conditioned on its version and on `change.condition` (the name `#status`
 * stands for Status); the places it holds given back, taken or moved between
 * timeslots (a booking holds its Participants on its timeslot while it is
 * held or confirmed); its index entries and the items beside it kept in
 * step (booking-indexes.ts); the counters of the places its key holds
 * (held-places.ts); and the partner's delivery when it has one, named on the
 * booking so that an erasure finds its payload.
 */
export function changeTransaction(
  current: BookingItem,
  next: BookingItem,
  change: Change,
  options: { delivery?: DeliveryItem; holdCaps?: HoldCaps } = {},
): ChangeTransaction {
  const names: Record<string, string> = { '#status': 'Status' };
  const values: Record<string, unknown> = { ...change.values, ':nextVersion': (current.Version ?? 0) + 1, ':updatedAt': change.at };
  const set = ['Version = :nextVersion', 'UpdatedAt = :updatedAt'];
  const remove: string[] = [];
  CHANGEABLE.forEach((attribute, index) => {
    if (same(current[attribute], next[attribute])) return;
    const name = attribute === 'Status' ? '#status' : `#a${index}`;
    names[name] = attribute;
    if (next[attribute] === undefined) remove.push(name);
    else {
      values[`:a${index}`] = next[attribute];
      set.push(`${name} = :a${index}`);
    }
  });
  const indexEntries = (entry: Record<string, string> | undefined, before: Record<string, string> | undefined) => {
    if (entry && !same(entry, before)) {
      for (const [attribute, value] of Object.entries(entry)) {
        set.push(`${attribute} = :${attribute}`);
        values[`:${attribute}`] = value;
      }
    }
    if (!entry && before) remove.push(...Object.keys(before));
  };
  indexEntries(isLive(next) ? manifestEntry(next) : undefined, isLive(current) ? manifestEntry(current) : undefined);
  indexEntries(dueEntry(next), dueEntry(current));
  indexEntries(partnerDayEntry(next), partnerDayEntry(current));
  if (options.delivery) {
    set.push('DeliveryIDs = list_append(if_not_exists(DeliveryIDs, :noDeliveries), :delivery)');
    Object.assign(values, { ':noDeliveries': [], ':delivery': [options.delivery.DeliveryID] });
  }

  const versionGuard = current.Version === undefined ? 'attribute_not_exists(Version)' : 'Version = :readVersion';
  if (current.Version !== undefined) values[':readVersion'] = current.Version;
  const items: TransactItems = [
    {
      Update: {
        TableName: tableName(),
        Key: bookingKeys.booking(current.OperatorID, current.BookingReference),
        UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
        ConditionExpression: `(${change.condition}) AND ${versionGuard}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];

  let takesAt: number | undefined;
  const [held, holds] = [isLive(current) ? current.Participants : 0, isLive(next) ? next.Participants : 0];
  if (same(timeslotKey(current), timeslotKey(next))) {
    if (holds > held) takesAt = items.push(takePlaces(timeslotKey(next), holds - held, change.at)) - 1;
    if (holds < held) items.push(givePlacesBack(timeslotKey(current), held - holds, change.at));
  } else {
    if (held) items.push(givePlacesBack(timeslotKey(current), held, change.at));
    if (holds) takesAt = items.push(takePlaces(timeslotKey(next), holds, change.at)) - 1;
  }

  const [before, after] = [besideItems(current), besideItems(next)];
  const among = (items: typeof before, item: (typeof before)[number]) => items.some((other) => same(other.key, item.key));
  for (const item of before) if (!among(after, item)) items.push({ Delete: { TableName: tableName(), Key: item.key } });
  for (const item of after) if (!among(before, item)) items.push(besidePut(next, item));
  const heldPlaces = countHeldPlaces(items, current, next, options.holdCaps);
  if (options.delivery) items.push(deliveryPut(options.delivery));
  return { input: { TransactItems: items }, takesAt, heldPlaces };
}
