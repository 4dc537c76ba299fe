import { tableName } from '../db/client';
import * as keys from '../db/keys';
import type { ItemKey } from '../db/keys';
import type { CancellationMarker } from './model';
import type { OpeningHours } from './schemas';

/**
 * Every update of a timeslot item is built here and nowhere else, so each
 * one carries what any change of a timeslot must: one more on its
 * `Sequence`, the per-timeslot order in which partners hear of its changes
 * (a receiver drops an event older than the last it applied), and the
 * instant of the change, `ChangedAt`, in the same write: the table's stream
 * hands each new Sequence to the announcer (shared/announcements). ADD starts a
 * missing attribute from 0, so a timeslot's first write gives it 1. The
 * conditions that keep a timeslot from being overbooked are here too:
 * places are taken only while it has that many left and is not closed.
 */

/** An update of one timeslot item: the input of an UpdateCommand, or a transaction's Update. */
export interface TimeslotUpdate {
  TableName: string;
  Key: ItemKey;
  UpdateExpression: string;
  ConditionExpression?: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

interface UpdateParts {
  set: string[];
  remove?: string[];
  condition?: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
  /** When the change is made (ISO 8601 UTC): the timeslot's ChangedAt. */
  at: string;
}

/** The one builder of a timeslot's update expression: what `parts` sets and removes, `ChangedAt` and `ADD Sequence :one`. */
export function timeslotUpdate(key: ItemKey, parts: UpdateParts): TimeslotUpdate {
  const remove = parts.remove?.length ? ` REMOVE ${parts.remove.join(', ')}` : '';
  return {
    TableName: tableName(),
    Key: key,
    UpdateExpression: `SET ${[...parts.set, 'ChangedAt = :changedAt'].join(', ')}${remove} ADD #sequence :one`,
    ...(parts.condition ? { ConditionExpression: parts.condition } : {}),
    ExpressionAttributeNames: { '#sequence': 'Sequence', ...parts.names },
    ExpressionAttributeValues: { ':one': 1, ':changedAt': parts.at, ...parts.values },
  };
}

export interface TimeslotAddress {
  operatorId: string;
  activityId: string;
  date: string;
  time: string;
}

export const timeslotKey = (slot: TimeslotAddress): ItemKey => keys.timeslot(slot.operatorId, slot.activityId, slot.date, slot.time);

/** A timeslot is open for sale unless closed; timeslots written before closing existed have no `Closed`. */
const OPEN = '(attribute_not_exists(#closed) OR #closed = :open)';

/**
 * Takes `places` only while the timeslot exists, has that many left and is
 * open: the one condition every channel's booking, hold and move meets.
 * The old image (ALL_OLD) tells a missing timeslot from a full or closed one.
 */
export const takePlaces = (key: ItemKey, places: number, at: string): TimeslotUpdate =>
  timeslotUpdate(key, {
    at,
    set: ['Booked = Booked + :places', 'Vacancies = Vacancies - :places'],
    condition: `attribute_exists(PK) AND Vacancies >= :places AND ${OPEN}`,
    names: { '#closed': 'Closed' },
    values: { ':places': places, ':open': false },
  });

/** Gives back the places a booking held (cancelled, expired, moved away), closed or not. */
export const givePlacesBack = (key: ItemKey, places: number, at: string): TimeslotUpdate =>
  timeslotUpdate(key, {
    at,
    set: ['Booked = Booked - :places', 'Vacancies = Vacancies + :places'],
    condition: 'attribute_exists(PK)',
    values: { ':places': places },
  });

type NewTimeslot = { Date: string; Time: string; Capacity: number; OpeningHours?: OpeningHours };

/** What a timeslot item says of itself (its entity, day, time, capacity and a day ticket's hours), as an import and an addition write it. */
const ownAttributes = (slot: NewTimeslot) => ({
  set: [
    'Entity = :entity',
    '#date = :date',
    '#time = :time',
    '#capacity = :capacity',
    ...(slot.OpeningHours ? ['OpeningHours = :hours'] : []),
  ],
  names: { '#date': 'Date', '#time': 'Time', '#capacity': 'Capacity' },
  values: {
    ':entity': 'Timeslot',
    ':date': slot.Date,
    ':time': slot.Time,
    ':capacity': slot.Capacity,
    ':zero': 0,
    ...(slot.OpeningHours ? { ':hours': slot.OpeningHours } : {}),
  },
});

/**
 * A catalogue import's timeslot: created, or given the file's capacity (and
 * a day ticket's hours) keeping the places already booked on it and whether
 * it is closed.
 */
export const importedTimeslot = (key: ItemKey, slot: NewTimeslot, at: string) => {
  const own = ownAttributes(slot);
  return timeslotUpdate(key, {
    at,
    // Vacancies is what a booking's condition checks; it follows a capacity change and keeps what is booked.
    set: [...own.set, 'Booked = if_not_exists(Booked, :zero)', 'Vacancies = :capacity - if_not_exists(Booked, :zero)'],
    remove: slot.OpeningHours ? [] : ['OpeningHours'],
    names: own.names,
    values: own.values,
  });
};

/** Who made an operator's change (an API key's ID, or `admin` for the admin CLI) and when (ISO 8601 UTC). */
export interface ChangeMark {
  by: string;
  at: string;
}

/** What an operator's change of one timeslot sets: a capacity, closed (with an optional reason) or reopened, or both. */
export interface OperatorChange {
  capacity?: number;
  /** Closed with the reason, when given; `false` reopens. */
  closed?: { reason?: string } | false;
}

/** A cancellation of the timeslot's bookings that has started and not finished: the timeslot stays closed until it has. */
const NOT_CANCELLING = '(attribute_not_exists(Cancellation) OR attribute_exists(Cancellation.FinishedAt))';

/** The parts of a close (with or without a reason), as one change and as the start of a cancellation. */
const closeParts = (reason: string | undefined, mark: ChangeMark) => ({
  set: ['#closed = :closed', 'ClosedBy = :closedBy', 'ClosedAt = :closedAt', ...(reason ? ['ClosedReason = :closedReason'] : [])],
  remove: reason ? [] : ['ClosedReason'],
  values: { ':closed': true, ':closedBy': mark.by, ':closedAt': mark.at, ...(reason ? { ':closedReason': reason } : {}) },
});

/**
 * An operator's change of one timeslot, in one conditional write, so it
 * never races a booking into an overbooking: a capacity only while no more
 * places are taken (held or booked) than it, with Vacancies following in the
 * same write; a close stops every sale at once (takePlaces' condition); a
 * reopening waits for a cancellation in progress to finish.
 */
export function operatorChange(key: ItemKey, change: OperatorChange, mark: ChangeMark): TimeslotUpdate {
  const set: string[] = [];
  const remove: string[] = [];
  const conditions = ['attribute_exists(PK)'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (change.capacity !== undefined) {
    set.push('#capacity = :capacity', 'Vacancies = :capacity - Booked', 'CapacityChangedBy = :by', 'CapacityChangedAt = :at');
    conditions.push('Booked <= :capacity');
    Object.assign(names, { '#capacity': 'Capacity' });
    Object.assign(values, { ':capacity': change.capacity, ':by': mark.by, ':at': mark.at });
  }
  if (change.closed) {
    const parts = closeParts(change.closed.reason, mark);
    set.push(...parts.set);
    remove.push(...parts.remove);
    Object.assign(names, { '#closed': 'Closed' });
    Object.assign(values, parts.values);
  } else if (change.closed === false) {
    set.push('#closed = :closed', 'ReopenedBy = :reopenedBy', 'ReopenedAt = :reopenedAt');
    remove.push('ClosedReason', 'ClosedBy', 'ClosedAt');
    conditions.push(NOT_CANCELLING);
    Object.assign(names, { '#closed': 'Closed' });
    Object.assign(values, { ':closed': false, ':reopenedBy': mark.by, ':reopenedAt': mark.at });
  }
  return timeslotUpdate(key, { at: mark.at, set, remove, condition: conditions.join(' AND '), names, values });
}

/** A timeslot the operator adds (a one-off departure): only where none is, with nothing booked. */
export const addedTimeslot = (key: ItemKey, slot: NewTimeslot, mark: ChangeMark): TimeslotUpdate => {
  const own = ownAttributes(slot);
  return timeslotUpdate(key, {
    at: mark.at,
    set: [...own.set, 'Booked = :zero', 'Vacancies = :capacity', 'AddedBy = :by', 'AddedAt = :at'],
    condition: 'attribute_not_exists(PK)',
    names: own.names,
    values: { ...own.values, ':by': mark.by, ':at': mark.at },
  });
};

/**
 * The start of a cancellation, in one conditional write: the timeslot
 * closes (nothing more can be sold on it), carries the cancellation, and is
 * due on the sweep that finishes what a stopped request left.
 */
export const cancellationStart = (key: ItemKey, marker: CancellationMarker, due: { GSI3PK: string; GSI3SK: string }): TimeslotUpdate => {
  const close = closeParts(marker.Reason, { by: marker.By, at: marker.StartedAt });
  return timeslotUpdate(key, {
    at: marker.StartedAt,
    set: [...close.set, 'Cancellation = :cancellation', 'GSI3PK = :duePk', 'GSI3SK = :dueSk'],
    remove: close.remove,
    condition: `attribute_exists(PK) AND ${NOT_CANCELLING}`,
    names: { '#closed': 'Closed' },
    values: { ...close.values, ':cancellation': marker, ':duePk': due.GSI3PK, ':dueSk': due.GSI3SK },
  });
};

/** The end of a cancellation, once no place is taken on the timeslot: it stays closed, and is no longer due. */
export const cancellationFinish = (key: ItemKey, startedAt: string, at: string): TimeslotUpdate =>
  timeslotUpdate(key, {
    at,
    set: ['Cancellation.FinishedAt = :at'],
    remove: ['GSI3PK', 'GSI3SK'],
    condition: 'Cancellation.StartedAt = :startedAt AND attribute_not_exists(Cancellation.FinishedAt) AND Booked <= :zero',
    values: { ':at': at, ':startedAt': startedAt, ':zero': 0 },
  });
