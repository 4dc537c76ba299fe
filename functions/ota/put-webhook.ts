import { validators } from '../../shared/api/validators/put-webhook.generated';
import { httpHandler, ok } from '../../shared/http/handler';
import { registerWebhook } from '../../shared/webhooks/endpoints';

export const handler = httpHandler(validators, async ({ caller, body }) => ok(await registerWebhook(caller, body)));
