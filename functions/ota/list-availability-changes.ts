import { validators } from '../../shared/api/validators/list-availability-changes.generated';
import { readChanges } from '../../shared/changes/feed';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

export const handler = httpHandler(validators, async ({ caller, query }) => ok(await readChanges(caller, query)), problemFace);
