import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { documentClient, tableName } from '../db/client';
import { keys } from '../db/keys';
import { ConflictError, ValidationError } from '../core/errors';
import { isTimeZone } from '../core/calendar';

export const OPERATOR_ID_PATTERN = /^[a-z0-9][a-z0-9-]{1,39}$/;

export interface Operator {
  OperatorID: string;
  Name: string;
  /** IANA zone in which the operator's booking dates and times are expressed. */
  TimeZone: string;
  CreatedAt: string;
}

function checkOperator(input: { OperatorID: string; Name: string; TimeZone: string }): void {
  if (!OPERATOR_ID_PATTERN.test(input.OperatorID)) {
    throw new ValidationError('OperatorID must be 2 to 40 lower-case letters, digits or dashes, starting with a letter or digit');
  }
  if (!input.Name.trim()) throw new ValidationError('Operator Name must not be empty');
  if (!isTimeZone(input.TimeZone)) throw new ValidationError(`TimeZone '${input.TimeZone}' is not an IANA time zone name`);
}

export async function createOperator(input: { OperatorID: string; Name: string; TimeZone: string }): Promise<Operator> {
  checkOperator(input);
  const operator: Operator = { ...input, CreatedAt: new Date().toISOString() };
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.operator(input.OperatorID), Entity: 'Operator', ...operator },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw new ConflictError(`Operator '${input.OperatorID}' already exists`);
    throw error;
  }
  return operator;
}

export async function getOperator(operatorId: string): Promise<Operator | undefined> {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.operator(operatorId) }));
  return Item as Operator | undefined;
}
