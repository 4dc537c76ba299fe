import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';

/** Created once per process (per Lambda container) and reused by every request. */
export const dynamo = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    region: config.region,
    endpoint: config.dynamoEndpoint,
    // DynamoDB Local accepts any credentials; on Lambda the role's are used.
    ...(config.dynamoEndpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  }),
  { marshallOptions: { removeUndefinedValues: true } },
);

export const tableName = config.tableName;
