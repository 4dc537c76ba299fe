import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet } from '../db/batch';
import { documentClient, tableName } from '../db/client';
import * as keys from '../db/keys';
import { queryAll } from '../db/query-pages';
import { GSI1 } from '../db/table-design';
import type { ProductItem, TimeslotItem } from './model';
import { importedTimeslot } from './timeslot-writes';

/** One function per catalogue access pattern; see the README's access-pattern table. */

const PRODUCT_SUMMARY_ATTRIBUTES =
  'ProductID, ActivityID, #name, NameLower, Description, Visible, DurationMinutes, MaxParticipantsPerBooking, PricePerParticipant, ' +
  'AvailabilityType, Units, StartTimes';

/** Visible products of an operator, optionally whose lower-cased name contains `nameFragment`. */
export function queryVisibleProducts(operatorId: string, nameFragment?: string): Promise<Omit<ProductItem, 'Questions'>[]> {
  const { PK, SKPrefix } = keys.productPrefix(operatorId);
  return queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    FilterExpression: nameFragment ? 'Visible = :visible AND contains(NameLower, :name)' : 'Visible = :visible',
    ProjectionExpression: PRODUCT_SUMMARY_ATTRIBUTES,
    ExpressionAttributeNames: { '#name': 'Name' },
    ExpressionAttributeValues: {
      ':pk': PK,
      ':prefix': SKPrefix,
      ':visible': true,
      ...(nameFragment ? { ':name': nameFragment.toLowerCase() } : {}),
    },
  });
}

/** Every product of an operator, hidden ones included, by ActivityID and name (the operator's manifest). */
export function queryProductNames(operatorId: string): Promise<Pick<ProductItem, 'ActivityID' | 'Name'>[]> {
  const { PK, SKPrefix } = keys.productPrefix(operatorId);
  return queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ProjectionExpression: 'ActivityID, #name',
    ExpressionAttributeNames: { '#name': 'Name' },
    ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
  });
}

/** Every product of an operator, hidden ones included, with just the identifying attributes. */
export function queryProductIdentities(operatorId: string): Promise<Pick<ProductItem, 'ProductID' | 'ActivityID' | 'NameLower'>[]> {
  const { PK, SKPrefix } = keys.productPrefix(operatorId);
  return queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ProjectionExpression: 'ProductID, ActivityID, NameLower',
    ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
  });
}

export async function getProduct(operatorId: string, activityId: string): Promise<ProductItem | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.product(operatorId, activityId) }));
  return Item as ProductItem | undefined;
}

export async function getProductByProductId(operatorId: string, productId: number): Promise<ProductItem | undefined> {
  const { GSI1PK, GSI1SK } = keys.productIdIndex(operatorId, productId);
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK = :sk',
      ExpressionAttributeValues: { ':pk': GSI1PK, ':sk': GSI1SK },
    }),
  );
  return Items?.[0] as ProductItem | undefined;
}

/**
 * Every timeslot of an activity from `firstDate` to `lastDate` inclusive, in
 * date and time order. Strongly consistent, so availability shows a booking
 * or cancellation the moment it is confirmed. What partners see of them,
 * unless `whole` (the operator's own view, with who changed what and when).
 */
export function queryTimeslots(
  operatorId: string,
  activityId: string,
  firstDate: string,
  lastDate: string,
  { whole = false } = {},
): Promise<TimeslotItem[]> {
  const { PK, SKFrom, SKTo } = keys.timeslotRange(operatorId, activityId, firstDate, lastDate);
  return queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ...(whole
      ? {}
      : {
          ProjectionExpression: '#date, #time, #capacity, Booked, Vacancies, OpeningHours, #closed',
          ExpressionAttributeNames: { '#date': 'Date', '#time': 'Time', '#capacity': 'Capacity', '#closed': 'Closed' },
        }),
    ExpressionAttributeValues: { ':pk': PK, ':from': SKFrom, ':to': SKTo },
    ConsistentRead: true,
  });
}

/** The optional attributes of a product: a write without one removes what an earlier import left. */
const OPTIONAL_PRODUCT_ATTRIBUTES = ['AvailabilityType', 'Units', 'StartTimes'] as const;

/**
 * Writes a product whole, with its ProductID index entry, and one more on
 * its Sequence (a new product starts at 1): the order in which partners
 * hear of its changes (product.changed), read from the table's stream.
 */
export async function putProduct(operatorId: string, item: ProductItem): Promise<void> {
  const attributes: Record<string, unknown> = {
    ...keys.productIdIndex(operatorId, item.ProductID),
    Entity: 'Product',
    ...item,
  };
  const names = Object.keys(attributes).filter((name) => attributes[name] !== undefined && name !== 'Sequence');
  const removed = OPTIONAL_PRODUCT_ATTRIBUTES.filter((name) => attributes[name] === undefined);
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.product(operatorId, item.ActivityID),
      UpdateExpression:
        `SET ${names.map((_, index) => `#a${index} = :a${index}`).join(', ')}` +
        `${removed.length ? ` REMOVE ${removed.join(', ')}` : ''} ADD #sequence :one`,
      ExpressionAttributeNames: { ...Object.fromEntries(names.map((name, index) => [`#a${index}`, name])), '#sequence': 'Sequence' },
      ExpressionAttributeValues: { ...Object.fromEntries(names.map((name, index) => [`:a${index}`, attributes[name]])), ':one': 1 },
    }),
  );
}

/** One timeslot, strongly consistent (its counters as the last transaction left them). */
export async function getTimeslot(operatorId: string, activityId: string, date: string, time: string): Promise<TimeslotItem | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.timeslot(operatorId, activityId, date, time), ConsistentRead: true }),
  );
  return Item as TimeslotItem | undefined;
}

/** Timeslots by activity, date and time (consistent), keyed `<activityId>#<date>#<time>`; missing ones are left out. */
export async function getTimeslots(
  operatorId: string,
  wanted: { activityId: string; date: string; time: string }[],
): Promise<Map<string, TimeslotItem>> {
  const byKey = new Map(
    wanted.map((slot) => {
      const key = keys.timeslot(operatorId, slot.activityId, slot.date, slot.time);
      return [`${key.PK}|${key.SK}`, { key, name: `${slot.activityId}#${slot.date}#${slot.time}` }];
    }),
  );
  const found = new Map<string, TimeslotItem>();
  await batchGet(
    'Reading timeslots',
    [...byKey.values()].map(({ key }) => key),
    {},
    (item) => {
      const name = byKey.get(`${item.PK}|${item.SK}`)?.name;
      if (name) found.set(name, item as unknown as TimeslotItem);
    },
  );
  return found;
}

/** Creates a timeslot or changes its capacity (and a day ticket's hours), keeping the places already booked on it. */
export async function putTimeslotCapacity(
  operatorId: string,
  activityId: string,
  slot: Pick<TimeslotItem, 'Date' | 'Time' | 'Capacity' | 'OpeningHours'>,
  at: string,
): Promise<void> {
  await documentClient().send(new UpdateCommand(importedTimeslot(keys.timeslot(operatorId, activityId, slot.Date, slot.Time), slot, at)));
}
