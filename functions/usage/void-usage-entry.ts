import { httpHandler, ok } from '../../shared/http/handler';
import { voidUsageEntry } from '../../shared/usage/void-entry';

const path = {
  type: 'object',
  required: ['ID'],
  properties: { ID: { type: 'string', pattern: '^[0-9]{1,16}$', errorMessage: 'must be the integer ID of a usage entry' } },
};

export const handler = httpHandler<{ ID: string }>({ path }, async ({ caller, path }) =>
  ok(await voidUsageEntry(caller.operatorId, path.ID)),
);
