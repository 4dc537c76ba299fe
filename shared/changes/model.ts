import type { AvailabilityStatus } from '../catalog/model';
import { slotStart } from '../catalog/timeslot-start';

/**
 * What partners hear of changes, and the records kept to tell them: every
 * change of a timeslot a partner sees is announced from the table's stream
 * (never from the request that made it), coalesced per timeslot, in Sequence
 * order; the changes feed lists the latest announcement of each timeslot.
 */

/** Later changes of a timeslot within this long of its last announcement become one. */
export const COALESCING_WINDOW_MS = 5_000;
/** A flush that has not happened this long after it was due is made by the sweep (its message was lost). */
export const FLUSH_GRACE_MS = 30_000;
/** Feed entries are kept this long after their announcement (TTL) ... */
export const FEED_RETENTION_SECONDS = 8 * 24 * 60 * 60;
/** ... and a cursor is good this long after the first announcement it has not read: every entry written since is still there. */
export const CURSOR_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** Changes per page of the feed, unless the reader asks for fewer (or more, up to the most). */
export const DEFAULT_FEED_LIMIT = 100;
export const MAX_FEED_LIMIT = 1000;

/** A timeslot as it is at one Sequence: what is announced of it, and a changes feed entry. */
export interface TimeslotChange {
  ActivityID: string;
  Date: string;
  Time: string;
  Status: AvailabilityStatus;
  Vacancies: number;
  Capacity: number;
  ChangedAt: string;
  Sequence: number;
}

/** The `availability.changed` event's data, and a change the feed answers: with the timeslot's start instant. */
export interface AvailabilityChange extends TimeslotChange {
  StartsAt: string;
}

/**
 * A change as partners are told it, through either channel: its start
 * instant (the marketplace's StartsAt, by the one rule) names a time the
 * clocks repeat without the partner resolving it. The feed's entries do not
 * keep it: it follows from Date and Time in the operator's zone.
 */
export const toldChange = (change: TimeslotChange, timeZone: string): AvailabilityChange => ({
  ActivityID: change.ActivityID,
  Date: change.Date,
  Time: change.Time,
  StartsAt: slotStart(change, timeZone),
  Status: change.Status,
  Vacancies: change.Vacancies,
  Capacity: change.Capacity,
  ChangedAt: change.ChangedAt,
  Sequence: change.Sequence,
});

/**
 * The announcer's record of one timeslot. Every decision written is
 * conditioned on the Version read, so the stream's records and the flushes
 * of one timeslot, however they interleave, decide from what is there.
 */
export interface TimeslotAnnouncementItem {
  OperatorID: string;
  ActivityID: string;
  Date: string;
  Time: string;
  Version: number;
  /** The last Sequence announced, or decided on (a change that left what partners see as it was). */
  Sequence?: number;
  /** What was last sent: a change that leaves all three as they were is not sent again. */
  Status?: AvailabilityStatus;
  Vacancies?: number;
  Capacity?: number;
  /** When the last change was sent: the start of the coalescing window. */
  AnnouncedAt?: string;
  /** While a trailing flush is waiting: when it is due (its message is on the queue, and GSI3 has it for the sweep). */
  FlushAt?: string;
  /**
   * While a flush waits: the highest Sequence the stream has handed over
   * meanwhile. Set without moving Version, so the flush is not sent to read
   * again by changes it read already (the stream lags behind a burst); the
   * flush's write requires it at or below the Sequence the flush read.
   */
  Pending?: number;
  /** The position of this timeslot's latest entry in its feed shard. */
  FeedPosition?: number;
}

/** One timeslot's latest announcement in its shard of the operator's changes feed. */
export interface FeedEntryItem extends TimeslotChange {
  Position: number;
  /** When it was announced: the order in which the feed lists the shards' entries together. */
  AnnouncedAt: string;
  /** Unix seconds: removed by TTL after FEED_RETENTION_SECONDS. */
  ExpiresAt: number;
}

/** The message that wakes a timeslot's trailing flush. */
export interface FlushMessage {
  OperatorID: string;
  ActivityID: string;
  Date: string;
  Time: string;
  FlushAt: string;
}

/** The announcer's record of one product: what was last told of it. */
export interface ProductAnnouncementItem {
  Version: number;
  Sequence: number;
  /** The SHA-256 of what partners are told of the product: a write that changes none of it is not announced. */
  Digest: string;
  Visible: boolean;
}
