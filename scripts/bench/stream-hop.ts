import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { BACKGROUND_AS_ON_AWS, LOCAL_CREDENTIALS, LOCAL_REGION } from '../../lib/local/defaults';
import { attributeClient, documentClient, tableName } from '../../shared/db/client';

/**
 * The propagation bench's baseline: one hop of the table's stream on this
 * machine as it is loaded now, from a write's answer to its record read by a
 * reader that polls as the live host does (four times a second). An event
 * to a partner takes two hops (the change to the announcer, its delivery to
 * the sender) and the work between them; measured in the same run, the
 * ratio says how much of a propagation time is the design and how much the
 * machine.
 */
export interface StreamHopProbe {
  measure(): Promise<number>;
  close(): void;
}

export async function streamHopProbe(dynamoEndpoint: string): Promise<StreamHopProbe> {
  const streams = new DynamoDBStreamsClient({ region: LOCAL_REGION, endpoint: dynamoEndpoint, credentials: LOCAL_CREDENTIALS });
  const { Table } = await attributeClient().send(new DescribeTableCommand({ TableName: tableName() }));
  const arn = Table?.LatestStreamArn as string;
  const iterators = new Map<string, string>();
  /** Open shards not read yet: from now on at the start, from their first record when they follow a closed one. */
  async function addShards(from: 'LATEST' | 'TRIM_HORIZON'): Promise<void> {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: arn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      if (shard.SequenceNumberRange?.EndingSequenceNumber || iterators.has(shard.ShardId as string)) continue;
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({ StreamArn: arn, ShardId: shard.ShardId, ShardIteratorType: from }),
      );
      if (ShardIterator) iterators.set(shard.ShardId as string, ShardIterator);
    }
  }
  await addShards('LATEST');
  let probes = 0;

  /** Reads every shard on from where it was; true when the probe's record was among what it read. */
  async function readFor(key: string): Promise<boolean> {
    let seen = false;
    let closed = false;
    for (const [shardId, iterator] of iterators) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      if (page.NextShardIterator) iterators.set(shardId, page.NextShardIterator);
      else closed = iterators.delete(shardId);
      seen ||= (page.Records ?? []).some((record) => record.dynamodb?.Keys?.PK?.S === key);
    }
    // A shard closed: the ones that follow it hold the records since.
    if (closed) await addShards('TRIM_HORIZON');
    return seen;
  }

  return {
    async measure() {
      const key = `BENCH#STREAM-HOP#${(probes += 1)}`;
      await documentClient().send(new PutCommand({ TableName: tableName(), Item: { PK: key, SK: 'PROBE' } }));
      const writtenAt = performance.now();
      // The host's reads fall anywhere in its period: the probe's first read waits a random part of one.
      await sleep(Math.random() * BACKGROUND_AS_ON_AWS.tableStream.pollMs);
      while (!(await readFor(key))) {
        if (performance.now() - writtenAt > 30_000) throw new Error(`The stream did not hand over ${key} within 30 s`);
        await sleep(BACKGROUND_AS_ON_AWS.tableStream.pollMs);
      }
      return performance.now() - writtenAt;
    },
    close: () => streams.destroy(),
  };
}
