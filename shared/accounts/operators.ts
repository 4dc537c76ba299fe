import { config } from '../core/config';
import { ConflictError, NotFoundError, ValidationError } from '../core/errors';
import { isTimeZone } from '../core/calendar';
import type { Operator } from './model';
import { getOperatorItem, putNewOperator } from './repository';

export type { Operator };

export const OPERATOR_ID_PATTERN = /^[a-z0-9][a-z0-9-]{1,39}$/;

function checkOperator(input: { OperatorID: string; Name: string; TimeZone: string }): void {
  if (!OPERATOR_ID_PATTERN.test(input.OperatorID)) {
    throw new ValidationError('must be 2 to 40 lower-case letters, digits or dashes, starting with a letter or digit', {
      field: 'OperatorID',
    });
  }
  if (!input.Name.trim()) throw new ValidationError('must not be empty', { field: 'Name' });
  if (!isTimeZone(input.TimeZone)) throw new ValidationError(`'${input.TimeZone}' is not an IANA time zone name`, { field: 'TimeZone' });
}

export async function createOperator(input: { OperatorID: string; Name: string; TimeZone: string }): Promise<Operator> {
  checkOperator(input);
  const operator: Operator = { ...input, CreatedAt: config().clock().toISOString() };
  if (!(await putNewOperator(operator))) throw new ConflictError(`Operator '${input.OperatorID}' already exists`);
  return operator;
}

export const getOperator = (operatorId: string): Promise<Operator | undefined> => getOperatorItem(operatorId);

/** The operator, which every operator-side write needs to exist. */
export async function requireOperator(operatorId: string): Promise<Operator> {
  const operator = await getOperatorItem(operatorId);
  if (!operator) throw new NotFoundError(`Operator '${operatorId}' does not exist`);
  return operator;
}
