import { tableName } from '../db/client';
import { keys, type ItemKey } from '../db/keys';
import type { OpeningHours } from './schemas';

/**
 * Every update of a timeslot item is built here and nowhere else, so each
 * one carries what any change of a timeslot must: one more on its
 * `Sequence`, the per-timeslot order in which partners hear of its changes
 * (a receiver drops an event older than the last it applied). ADD starts a
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
}

/** The one builder of a timeslot's update expression: what `parts` sets and removes, and `ADD Sequence :one`. */
export function timeslotUpdate(key: ItemKey, parts: UpdateParts): TimeslotUpdate {
  const remove = parts.remove?.length ? ` REMOVE ${parts.remove.join(', ')}` : '';
  return {
    TableName: tableName(),
    Key: key,
    UpdateExpression: `SET ${parts.set.join(', ')}${remove} ADD #sequence :one`,
    ...(parts.condition ? { ConditionExpression: parts.condition } : {}),
    ExpressionAttributeNames: { '#sequence': 'Sequence', ...parts.names },
    ExpressionAttributeValues: { ':one': 1, ...parts.values },
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
export const takePlaces = (key: ItemKey, places: number): TimeslotUpdate =>
  timeslotUpdate(key, {
    set: ['Booked = Booked + :places', 'Vacancies = Vacancies - :places'],
    condition: `attribute_exists(PK) AND Vacancies >= :places AND ${OPEN}`,
    names: { '#closed': 'Closed' },
    values: { ':places': places, ':open': false },
  });

/** Gives back the places a booking held (cancelled, expired, moved away), closed or not. */
export const givePlacesBack = (key: ItemKey, places: number): TimeslotUpdate =>
  timeslotUpdate(key, {
    set: ['Booked = Booked - :places', 'Vacancies = Vacancies + :places'],
    condition: 'attribute_exists(PK)',
    values: { ':places': places },
  });

/**
 * A catalogue import's timeslot: created, or given the file's capacity (and
 * a day ticket's hours) keeping the places already booked on it and whether
 * it is closed.
 */
export const importedTimeslot = (key: ItemKey, slot: { Date: string; Time: string; Capacity: number; OpeningHours?: OpeningHours }) =>
  timeslotUpdate(key, {
    // Vacancies is what a booking's condition checks; it follows a capacity change and keeps what is booked.
    set: [
      'Entity = :entity',
      '#date = :date',
      '#time = :time',
      '#capacity = :capacity',
      'Booked = if_not_exists(Booked, :zero)',
      'Vacancies = :capacity - if_not_exists(Booked, :zero)',
      ...(slot.OpeningHours ? ['OpeningHours = :hours'] : []),
    ],
    remove: slot.OpeningHours ? [] : ['OpeningHours'],
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
