import { requireOperator } from '../accounts/operators';
import { ValidationError } from '../core/errors';
import { checkedBy } from '../core/validation';
import { usageLimit } from './limit-body.generated';
import { LIMIT_ID_PATTERN, LIMIT_ID_RULE } from './limit-model';
import type { UsageLimit, UsageLimitInput } from './limit-schemas';
import { putUsageLimit } from './limits';

/** A limit the admin CLI puts from a file: the PUT body, checked by the same schema, for an operator named on the command line. */
const validateLimit = checkedBy<UsageLimitInput>(usageLimit, 'The limit');

export async function putUsageLimitFromFile(operatorId: string, limitId: string, input: unknown): Promise<UsageLimit> {
  if (!new RegExp(LIMIT_ID_PATTERN).test(limitId)) throw new ValidationError(LIMIT_ID_RULE, { field: 'LimitID' });
  const limit = validateLimit(input);
  const operator = await requireOperator(operatorId);
  return putUsageLimit({ operatorId, timeZone: operator.TimeZone }, limitId, limit);
}
