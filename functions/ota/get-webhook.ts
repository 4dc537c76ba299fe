import { validators } from '../../shared/api/validators/get-webhook.generated';
import { httpHandler, ok } from '../../shared/http/handler';
import { readWebhook } from '../../shared/webhooks/endpoints';

export const handler = httpHandler(validators, async ({ caller }) => ok(await readWebhook(caller)));
