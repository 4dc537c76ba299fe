import { validators } from '../../shared/api/validators/put-webhook.generated';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';
import { registerWebhook } from '../../shared/webhooks/endpoints';

export const handler = httpHandler(validators, async ({ caller, body }) => ok(await registerWebhook(caller, body)), problemFace);
