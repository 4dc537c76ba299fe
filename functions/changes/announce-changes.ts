import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { changeAnnouncer } from '../../shared/api/background';
import { announceWrite } from '../../shared/changes/records';
import { annotate, logError, observed } from '../../shared/core/observability';

/**
 * Announces the writes the table's stream hands over (timeslots, products,
 * OCTo bookings: the filters of shared/api/background.ts). The records of
 * one item are worked on in their order, one after another; a few items at
 * once (itemsAtOnce). A record that fails is reported with every later record of its
 * item left for the retry, so Lambda hands them over again in order (and
 * finally dead-letters it); each is idempotent, so records handed twice change nothing.
 */
const itemOf = (record: DynamoDBRecord) => `${record.dynamodb?.Keys?.PK?.S}|${record.dynamodb?.Keys?.SK?.S}`;

async function announceItem(records: DynamoDBRecord[]): Promise<DynamoDBRecord | undefined> {
  for (const record of records) {
    try {
      const image = record.dynamodb?.NewImage;
      if (!image) throw new Error('The stream record has no new image');
      await announceWrite(unmarshall(image as Record<string, AttributeValue>));
    } catch (error) {
      logError('Announcing a change failed', { sequenceNumber: record.dynamodb?.SequenceNumber, error });
      return record;
    }
  }
  return undefined;
}

async function announceBatch(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const byItem = new Map<string, DynamoDBRecord[]>();
  for (const record of event.Records) byItem.set(itemOf(record), [...(byItem.get(itemOf(record)) ?? []), record]);
  const items = [...byItem.values()];
  const failed: DynamoDBRecord[] = [];
  const worker = async () => {
    for (let item = items.shift(); item; item = items.shift()) {
      const failure = await announceItem(item);
      if (failure) failed.push(failure);
    }
  };
  await Promise.all(Array.from({ length: changeAnnouncer.itemsAtOnce }, worker));
  annotate({ items: byItem.size, failedRecords: failed.length });
  return { batchItemFailures: failed.map((record) => ({ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' })) };
}

export const handler = observed<DynamoDBStreamEvent, DynamoDBBatchResponse>(
  { message: 'Change announcements', fields: (event) => ({ records: event.Records.length }) },
  announceBatch,
);
