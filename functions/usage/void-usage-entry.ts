import { validators } from '../../shared/api/validators/void-usage-entry.generated';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';
import { voidUsageEntry } from '../../shared/usage/void-entry';

export const handler = httpHandler(
  validators,
  async ({ caller, path }) => ok((await voidUsageEntry(caller.operatorId, path.ID)).entry),
  problemFace,
);
