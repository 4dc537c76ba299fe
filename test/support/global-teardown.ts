import type { DynamoDbLocal } from '../../lib/dynamodb-local';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __dynamoLocal?: DynamoDbLocal }).__dynamoLocal?.stop();
}
