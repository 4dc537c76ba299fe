import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import { config } from '../../shared/core/config';
import { attributeClient } from '../../shared/db/client';

/** Every record of the configured table's stream on DynamoDB Local, from the oldest, as DynamoDB Streams hands them out. */
export async function streamRecords(): Promise<_Record[]> {
  const { region, dynamoEndpoint, localCredentials, tableName } = config();
  const { Table } = await attributeClient().send(new DescribeTableCommand({ TableName: tableName }));
  const streams = new DynamoDBStreamsClient({ region, endpoint: dynamoEndpoint, credentials: localCredentials });
  try {
    const records: _Record[] = [];
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: Table?.LatestStreamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      let { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({ StreamArn: Table?.LatestStreamArn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' }),
      );
      // An open shard always answers a next iterator: it is read until a read brings nothing.
      while (ShardIterator) {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator }));
        records.push(...(page.Records ?? []));
        ShardIterator = page.Records?.length ? page.NextShardIterator : undefined;
      }
    }
    return records;
  } finally {
    streams.destroy();
  }
}
