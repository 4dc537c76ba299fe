import { validators } from '../../shared/api/validators/list-availability-changes.generated';
import { readChanges } from '../../shared/changes/feed';
import { httpHandler, ok } from '../../shared/http/handler';

export const handler = httpHandler(validators, async ({ caller, query }) => ok(await readChanges(caller, query)));
