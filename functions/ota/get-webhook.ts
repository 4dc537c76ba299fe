import { httpHandler, ok } from '../../shared/http/handler';
import { readWebhook } from '../../shared/webhooks/endpoints';

export const handler = httpHandler({}, async ({ caller }) => ok(await readWebhook(caller)));
