import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';

/**
 * The low-level client, for reads that must keep numbers as DynamoDB's
 * decimal text instead of JavaScript floats (usage totals). Created once per
 * process (per Lambda container) and reused by every request.
 */
export const dynamoAttributes = new DynamoDBClient({
  region: config.region,
  endpoint: config.dynamoEndpoint,
  // DynamoDB Local accepts any credentials; on Lambda the role's are used.
  ...(config.dynamoEndpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
});

/** The document client over the same connection pool: plain JavaScript values in and out. */
export const dynamo = DynamoDBDocumentClient.from(dynamoAttributes, { marshallOptions: { removeUndefinedValues: true } });

export const tableName = config.tableName;
