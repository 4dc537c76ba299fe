import { requireOperator } from '../accounts/operators';
import { timeslotStatus, vacanciesOf } from '../catalog/availability';
import { DEFAULT_OPTION_ID } from '../catalog/constants';
import type { TimeslotItem } from '../catalog/model';
import { getProduct, getTimeslot } from '../catalog/repository';
import { unixSeconds } from '../core/clock';
import { config } from '../core/config';
import { sendDelayed } from '../core/delay-queue';
import { RETRY, retrying } from '../core/retry';
import { tell } from './fan-out';
import {
  COALESCING_WINDOW_MS,
  FEED_RETENTION_SECONDS,
  toldChange,
  type FlushMessage,
  type TimeslotAnnouncementItem,
  type TimeslotChange,
} from './model';
import { knownPosition, positionMoved, positionTaken, shardOf } from './feed-shards';
import { commitAnnouncement, getTimeslotAnnouncement, markPending, putTimeslotAnnouncement } from './repository';

/**
 * Every change of a timeslot a partner sees reaches here from the table's
 * stream, in Sequence order per timeslot, at least once. The first change of
 * a quiet timeslot is announced at once; a change within the coalescing
 * window of the last announcement waits for the window's trailing flush
 * (a delayed queue message, and the sweep should it be lost), which
 * announces the timeslot as a consistent read finds it then. So a burst is
 * told about once per window, and its last state always. Nothing moves
 * backwards: a Sequence at or below the one announced changes nothing, and
 * every decision is written over the version of the timeslot's record it was
 * made from, so records handed over twice and flushes running beside the
 * stream decide again from what is there. While a flush waits, the stream
 * only raises the record's Pending Sequence: a flush is made to read again
 * only by a change above the one it read, so a stream still handing over a
 * burst the flush has read cannot hold the flush off.
 */
export type SlotRef = Pick<TimeslotAnnouncementItem, 'OperatorID' | 'ActivityID' | 'Date' | 'Time'>;
/** A timeslot as the stream or a consistent read gives it. */
export type SlotState = Pick<TimeslotItem, 'Capacity' | 'Vacancies' | 'Closed' | 'Sequence' | 'ChangedAt'>;

export type AnnounceOutcome = 'announced' | 'unchanged' | 'hidden' | 'stale' | 'scheduled' | 'pending' | 'not-due';

/** A timeslot's record contended (a flush beside the stream) is decided again within these. */
const ATTEMPTS = { attempts: 25, capMs: 200 };
/** A feed shard's position taken meanwhile by other timeslots: the same announcement is committed again at the next one. */
const POSITION_ATTEMPTS = { attempts: 50, capMs: 100 };

/** The record's own fields, without its keys, index entries and Pending (a record is written whole, as a decision that covers Pending). */
const recordOf = (ref: SlotRef, item?: TimeslotAnnouncementItem): TimeslotAnnouncementItem => ({
  OperatorID: ref.OperatorID,
  ActivityID: ref.ActivityID,
  Date: ref.Date,
  Time: ref.Time,
  Version: item?.Version ?? 0,
  ...(item?.Sequence === undefined ? {} : { Sequence: item.Sequence }),
  ...(item?.Status === undefined ? {} : { Status: item.Status, Vacancies: item.Vacancies, Capacity: item.Capacity }),
  ...(item?.AnnouncedAt ? { AnnouncedAt: item.AnnouncedAt } : {}),
  ...(item?.FlushAt ? { FlushAt: item.FlushAt } : {}),
  ...(item?.FeedPosition ? { FeedPosition: item.FeedPosition } : {}),
});

/** The timeslot at `slot`'s Sequence: the feed's entry, and, with its start instant (toldChange), the `availability.changed` event's data. */
export const changeOf = (ref: SlotRef, slot: SlotState & { Sequence: number }, now: Date): TimeslotChange => ({
  ActivityID: ref.ActivityID,
  Date: ref.Date,
  Time: ref.Time,
  Status: timeslotStatus(slot),
  Vacancies: vacanciesOf(slot),
  Capacity: slot.Capacity,
  ChangedAt: slot.ChangedAt ?? now.toISOString(),
  Sequence: slot.Sequence,
});

const sameAsSent = (record: TimeslotAnnouncementItem, change: TimeslotChange) =>
  record.Status === change.Status && record.Vacancies === change.Vacancies && record.Capacity === change.Capacity;

const isQuiet = (record: TimeslotAnnouncementItem, now: Date) =>
  !record.AnnouncedAt || now.getTime() - Date.parse(record.AnnouncedAt) >= COALESCING_WINDOW_MS;

/**
 * Announces `slot` (its Sequence above the record's): to every listener and
 * in the feed, unless partners would hear nothing new (the same status,
 * vacancies and capacity as last sent) or the product is hidden, when only
 * the Sequence is recorded. Undefined when the record or the feed moved meanwhile.
 */
async function announce(
  record: TimeslotAnnouncementItem,
  slot: SlotState & { Sequence: number },
  now: Date,
): Promise<AnnounceOutcome | undefined> {
  const change = changeOf(record, slot, now);
  const settled: TimeslotAnnouncementItem = { ...record, FlushAt: undefined, Sequence: change.Sequence, Version: record.Version + 1 };
  if (sameAsSent(record, change))
    return (await putTimeslotAnnouncement(settled, record.Version, change.Sequence)) ? 'unchanged' : undefined;
  const [product, operator] = await Promise.all([getProduct(record.OperatorID, record.ActivityID), requireOperator(record.OperatorID)]);
  if (!product?.Visible) return (await putTimeslotAnnouncement(settled, record.Version, change.Sequence)) ? 'hidden' : undefined;
  await tell(
    {
      operatorId: record.OperatorID,
      id: `availability#${record.ActivityID}#${record.Date}#${record.Time}#${change.Sequence}`,
      webhook: { type: 'availability.changed', data: toldChange(change, operator.TimeZone) },
      octo: {
        type: 'AVAILABILITY_UPDATE',
        data: { productId: record.ActivityID, optionId: DEFAULT_OPTION_ID, localDateStart: record.Date, localDateEnd: record.Date },
      },
    },
    now,
  );
  const shard = shardOf(record);
  const outcome = await retrying(
    'Taking a position in the changes feed',
    async () => {
      const readPosition = await knownPosition(record.OperatorID, shard);
      const position = readPosition + 1;
      const committed = await commitAnnouncement({
        next: {
          ...settled,
          Status: change.Status,
          Vacancies: change.Vacancies,
          Capacity: change.Capacity,
          AnnouncedAt: now.toISOString(),
          FeedPosition: position,
        },
        readVersion: record.Version,
        entry: { ...change, Position: position, AnnouncedAt: now.toISOString(), ExpiresAt: unixSeconds(now) + FEED_RETENTION_SECONDS },
        shard,
        readPosition,
        previousPosition: record.FeedPosition,
      });
      if (committed === 'done') positionTaken(record.OperatorID, shard, position);
      if (committed !== 'position-moved') return committed;
      positionMoved(record.OperatorID, shard);
      return RETRY;
    },
    POSITION_ATTEMPTS,
  );
  return outcome === 'done' ? 'announced' : undefined;
}

/** A timeslot's write, as the table's stream hands it over. */
export function timeslotWritten(ref: SlotRef, slot: SlotState, now: Date = config().clock()): Promise<AnnounceOutcome> {
  const sequence = slot.Sequence;
  // Written before timeslots had a Sequence: there is nothing to order it by, and the next change carries one.
  if (sequence === undefined) return Promise.resolve('stale');
  return retrying(
    'Announcing a timeslot change',
    async () => {
      const item = await getTimeslotAnnouncement(ref);
      const record = recordOf(ref, item);
      if ((record.Sequence ?? 0) >= sequence) return 'stale';
      if (record.FlushAt) {
        // The waiting flush reads the timeslot when it runs; Pending makes it read again if it read before this change.
        if ((item?.Pending ?? 0) >= sequence) return 'pending';
        return (await markPending(ref, record.Version, sequence)) ? 'pending' : RETRY;
      }
      if (isQuiet(record, now)) return (await announce(record, { ...slot, Sequence: sequence }, now)) ?? RETRY;
      const flushAt = new Date(Date.parse(record.AnnouncedAt as string) + COALESCING_WINDOW_MS).toISOString();
      const waiting = { ...record, FlushAt: flushAt, Version: record.Version + 1 };
      if (!(await putTimeslotAnnouncement(waiting, record.Version, sequence))) return RETRY;
      const message: FlushMessage = { ...ref, FlushAt: flushAt };
      await sendDelayed(message, (Date.parse(flushAt) - now.getTime()) / 1000);
      return 'scheduled';
    },
    ATTEMPTS,
  );
}

/** A trailing flush, woken by its queue message or by the sweep: the timeslot as it is now, unless that Sequence was announced. */
export function flushDue(message: FlushMessage, now: Date = config().clock()): Promise<AnnounceOutcome> {
  const ref: SlotRef = { OperatorID: message.OperatorID, ActivityID: message.ActivityID, Date: message.Date, Time: message.Time };
  return retrying(
    'Flushing a timeslot change',
    async () => {
      const record = recordOf(ref, await getTimeslotAnnouncement(ref));
      // Flushed already (a message handed over twice, the sweep beside the queue), or a later flush waits.
      if (record.FlushAt !== message.FlushAt) return 'not-due';
      const slot = await getTimeslot(ref.OperatorID, ref.ActivityID, ref.Date, ref.Time);
      if (slot?.Sequence === undefined || slot.Sequence <= (record.Sequence ?? 0)) {
        const cleared = { ...record, FlushAt: undefined, Version: record.Version + 1 };
        return (await putTimeslotAnnouncement(cleared, record.Version, slot?.Sequence ?? 0)) ? 'stale' : RETRY;
      }
      return (await announce(record, { ...slot, Sequence: slot.Sequence }, now)) ?? RETRY;
    },
    ATTEMPTS,
  );
}
