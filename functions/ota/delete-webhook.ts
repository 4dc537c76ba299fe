import { httpHandler, noContent } from '../../shared/http/handler';
import { removeWebhook } from '../../shared/webhooks/endpoints';

export const handler = httpHandler({}, async ({ caller }) => {
  await removeWebhook(caller);
  return noContent();
});
