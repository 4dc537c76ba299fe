import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../core/config';
import { timedCalls } from '../core/observability';

/**
 * The DynamoDB clients, created once per process (per Lambda container) on
 * first use, from the configuration, and reused by every request.
 */
let clients: { attributes: DynamoDBClient; documents: DynamoDBDocumentClient } | undefined;

function create() {
  const { region, dynamoEndpoint, localCredentials } = config();
  const attributes = new DynamoDBClient({ region, endpoint: dynamoEndpoint, credentials: localCredentials });
  // Every call is timed: the invocation's line and the DependencyLatency metric show it (shared/core/observability.ts).
  timedCalls(attributes, 'DynamoDB');
  return { attributes, documents: DynamoDBDocumentClient.from(attributes, { marshallOptions: { removeUndefinedValues: true } }) };
}

/** The document client: plain JavaScript values in and out. */
export const documentClient = (): DynamoDBDocumentClient => (clients ??= create()).documents;

/**
 * The low-level client over the same connection pool, for reads that must
 * keep numbers as DynamoDB's decimal text instead of JavaScript floats (usage totals).
 */
export const attributeClient = (): DynamoDBClient => (clients ??= create()).attributes;

export const tableName = (): string => config().tableName;
