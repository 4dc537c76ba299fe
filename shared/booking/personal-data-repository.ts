import { DeleteCommand, QueryCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../db/client';
import * as bookingKeys from '../db/booking-keys';
import { transactionCancellation } from '../db/transaction-errors';
import { customerPrefix } from './booking-indexes';
import { emailHash } from './personal-data';

/** The access patterns of customers' personal data: a customer's bookings by email, and the guarded writes of an erasure. */

/** The references of an operator's bookings of one customer, by the SHA-256 of the customer's email (consistent), at most `limit`. */
export async function queryCustomerBookings(operatorId: string, email: string, limit: number): Promise<string[]> {
  const { PK } = customerPrefix(operatorId, email);
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': PK },
      ProjectionExpression: 'BookingReference',
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return (Items ?? []).map((item) => item.BookingReference as string);
}

/** Removes the item that finds a booking by a customer's email, when the booking no longer holds that email. */
export async function deleteCustomerEntry(operatorId: string, email: string, reference: string): Promise<void> {
  await documentClient().send(
    new DeleteCommand({ TableName: tableName(), Key: bookingKeys.customerEntry(operatorId, emailHash(email), reference) }),
  );
}

/**
 * Runs a transaction conditioned on what it read, whatever its condition
 * fails on (an erasure: the booking's change and its copies' updates; the
 * indexing of a booking made before): 'moved' when any item is no longer as
 * read (the booking changed, a copy expired) or the transaction lost a
 * race, so the caller reads and decides again.
 */
export async function writeGuarded(input: TransactWriteCommandInput): Promise<'done' | 'moved'> {
  try {
    await documentClient().send(new TransactWriteCommand(input));
    return 'done';
  } catch (error) {
    if (transactionCancellation(error)) return 'moved';
    throw error;
  }
}
