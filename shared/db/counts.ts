import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from './client';
import type { ItemKey } from './keys';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * An operator's count of something it may have only so many of (meters,
 * usage limits), moved from the value a request read to the next, in the
 * transaction that adds or removes the counted items: only if no other
 * request moved it meanwhile, so two requests cannot both take the last place.
 * A count read as 0 may not exist yet.
 */
export const countMove = (key: ItemKey, entity: string, count: number, next: number): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: key,
    UpdateExpression: 'SET Entity = :entity, #count = :next',
    ConditionExpression: count === 0 ? 'attribute_not_exists(PK) OR #count = :count' : '#count = :count',
    ExpressionAttributeNames: { '#count': 'Count' },
    ExpressionAttributeValues: { ':entity': entity, ':next': next, ':count': count },
  },
});
