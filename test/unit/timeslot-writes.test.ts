import { configure } from '../../shared/core/config';
import {
  addedTimeslot,
  cancellationFinish,
  cancellationStart,
  givePlacesBack,
  importedTimeslot,
  operatorChange,
  takePlaces,
  type TimeslotUpdate,
} from '../../shared/catalog/timeslot-writes';

/**
 * Every write of a timeslot item comes from one builder: each adds one to the
 * timeslot's Sequence and sets its ChangedAt, and carries the condition that
 * keeps the timeslot from being overbooked or reopened mid-cancellation.
 */
// The builders name the table as they build: configured before the table of writes below is made.
configure({ tableName: 'ota-usage-unit' });

describe('the writes of a timeslot', () => {
  const key = { PK: 'OP#acme#ACT#s_boat1', SK: 'SLOT#2026-07-01#17:30' };
  const at = '2026-06-30T18:40:00.000Z';
  const mark = { by: 'key_abc', at };
  const marker = { Reason: 'Storm', By: 'key_abc', StartedAt: at, OperatorID: 'acme', ActivityID: 's_boat1' };
  const due = { GSI3PK: 'DUE#TIMESLOT', GSI3SK: `2026-06-30T18:41:00.000Z#acme#s_boat1#2026-07-01#17:30` };

  const writes: [string, TimeslotUpdate][] = [
    ['take places', takePlaces(key, 2, at)],
    ['give places back', givePlacesBack(key, 2, at)],
    ['import', importedTimeslot(key, { Date: '2026-07-01', Time: '17:30', Capacity: 12 }, at)],
    ['capacity', operatorChange(key, { capacity: 6 }, mark)],
    ['close', operatorChange(key, { closed: { reason: 'Storm' } }, mark)],
    ['reopen', operatorChange(key, { closed: false }, mark)],
    ['capacity and close', operatorChange(key, { capacity: 6, closed: {} }, mark)],
    ['add', addedTimeslot(key, { Date: '2026-07-01', Time: '17:30', Capacity: 8 }, mark)],
    ['cancellation start', cancellationStart(key, marker, due)],
    ['cancellation end', cancellationFinish(key, at, at)],
  ];

  it.each(writes)('%s: adds one to Sequence and sets ChangedAt, names and values all used', (_, write) => {
    expect(write.UpdateExpression).toMatch(/ ADD #sequence :one$/);
    expect(write.UpdateExpression).toContain('ChangedAt = :changedAt');
    expect(write.ExpressionAttributeNames['#sequence']).toBe('Sequence');
    expect(write.ExpressionAttributeValues).toMatchObject({ ':one': 1, ':changedAt': expect.any(String) });
    const expressions = `${write.UpdateExpression} ${write.ConditionExpression ?? ''}`;
    for (const name of Object.keys(write.ExpressionAttributeNames)) expect(expressions).toContain(name);
    for (const value of Object.keys(write.ExpressionAttributeValues)) expect(expressions).toMatch(new RegExp(`${value}\\b`));
  });

  it('takes places only on an open timeslot with that many left', () => {
    expect(takePlaces(key, 2, at).ConditionExpression).toBe(
      'attribute_exists(PK) AND Vacancies >= :places AND (attribute_not_exists(#closed) OR #closed = :open)',
    );
  });

  it('sets a capacity only while no more places are taken, Vacancies following in the same write, and records who and when', () => {
    const write = operatorChange(key, { capacity: 6 }, mark);
    expect(write.ConditionExpression).toBe('attribute_exists(PK) AND Booked <= :capacity');
    expect(write.UpdateExpression).toContain('Vacancies = :capacity - Booked');
    expect(write.ExpressionAttributeValues).toMatchObject({ ':capacity': 6, ':by': 'key_abc', ':at': at });
  });

  it('closes with or without a reason, and reopens only once no cancellation is in progress', () => {
    expect(operatorChange(key, { closed: {} }, mark).UpdateExpression).toContain('REMOVE ClosedReason');
    expect(operatorChange(key, { closed: { reason: 'Storm' } }, mark).ExpressionAttributeValues[':closedReason']).toBe('Storm');
    const reopen = operatorChange(key, { closed: false }, mark);
    expect(reopen.ConditionExpression).toBe(
      'attribute_exists(PK) AND (attribute_not_exists(Cancellation) OR attribute_exists(Cancellation.FinishedAt))',
    );
    expect(reopen.UpdateExpression).toContain('REMOVE ClosedReason, ClosedBy, ClosedAt');
  });

  it('adds a timeslot only where none is, and ends a cancellation only once no place is taken', () => {
    expect(addedTimeslot(key, { Date: '2026-07-01', Time: '17:30', Capacity: 8 }, mark).ConditionExpression).toBe(
      'attribute_not_exists(PK)',
    );
    expect(cancellationFinish(key, at, at).ConditionExpression).toContain('Booked <= :zero');
    expect(cancellationStart(key, marker, due).UpdateExpression).toContain('GSI3SK = :dueSk');
  });
});
