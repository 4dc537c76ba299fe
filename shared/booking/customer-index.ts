import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { RETRY, retrying } from '../core/retry';
import { batchGet } from '../db/batch';
import { tableName } from '../db/client';
import * as bookingKeys from '../db/booking-keys';
import { besideItems, besidePut, dueEntry } from './booking-indexes';
import type { BookingItem } from './model';
import { writeGuarded } from './personal-data-repository';
import { getBooking, queryBookingsCreatedBetween } from './repository';

/**
 * For bookings made before erasure and retention existed: the item that
 * finds each by its customer's email, and its retention entry on the due
 * index (the admin CLI's index-personal-data). Bookings made since have
 * both from their own transactions. Safe to run again, and while the
 * service runs: each booking's write is conditioned on the version it read.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Every instant a booking can have been made at, for the operator's list by creation. */
const ALL_TIME = { fromIso: '0000', toIso: '9999' };
const PAGE = 100;

/** Items beside bookings that exist, by key, among the ones `items` should have. */
async function existingBeside(items: BookingItem[]): Promise<Set<string>> {
  const keys = items.flatMap((item) => besideItems(item).map((entry) => entry.key));
  const found = new Set<string>();
  await batchGet('Reading the items beside bookings', keys, { projection: { expression: 'PK, SK' } }, (item) =>
    found.add(`${item.PK}|${item.SK}`),
  );
  return found;
}

/** The write that gives one booking what it lacks (its due entry, the items beside it), conditioned on its version; none when it lacks nothing. */
function indexing(item: BookingItem & { GSI3PK?: string; GSI3SK?: string }, existing: Set<string>): TransactItem[] {
  const due = dueEntry(item);
  const lacksDue = due !== undefined && (item.GSI3PK !== due.GSI3PK || item.GSI3SK !== due.GSI3SK);
  const beside = besideItems(item)
    .filter((entry) => !existing.has(`${entry.key.PK}|${entry.key.SK}`))
    .map((entry) => besidePut(item, entry));
  if (!lacksDue && !beside.length) return [];
  const key = bookingKeys.booking(item.OperatorID, item.BookingReference);
  const version = item.Version === undefined ? 'attribute_not_exists(Version)' : 'Version = :version';
  const values = item.Version === undefined ? {} : { ':version': item.Version };
  const guard: TransactItem = lacksDue
    ? {
        Update: {
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET GSI3PK = :pk, GSI3SK = :sk',
          ConditionExpression: version,
          ExpressionAttributeValues: { ...values, ':pk': due.GSI3PK, ':sk': due.GSI3SK },
        },
      }
    : { ConditionCheck: { TableName: tableName(), Key: key, ConditionExpression: version, ExpressionAttributeValues: values } };
  return [guard, ...beside];
}

async function indexBooking(item: BookingItem, existing: Set<string>): Promise<boolean> {
  let current = item;
  return retrying(`Indexing booking ${item.BookingReference}`, async () => {
    const items = indexing(current, existing);
    if (!items.length) return false;
    if ((await writeGuarded({ TransactItems: items })) === 'done') return true;
    current = (await getBooking(item.OperatorID, item.BookingReference)) as BookingItem;
    return RETRY;
  });
}

/** Indexes every booking of the operator that lacks its email item or its retention entry; says how many it read and wrote. */
export async function indexPersonalData(operatorId: string): Promise<{ read: number; indexed: number }> {
  let [read, indexed] = [0, 0];
  let after: string | undefined;
  do {
    const page = await queryBookingsCreatedBetween(operatorId, ALL_TIME, { limit: PAGE, afterSortKey: after });
    const existing = await existingBeside(page.items);
    const written = await Promise.all(page.items.map((item) => indexBooking(item, existing)));
    read += page.items.length;
    indexed += written.filter(Boolean).length;
    after = page.lastSortKey;
  } while (after);
  return { read, indexed };
}
