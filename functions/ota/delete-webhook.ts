import { validators } from '../../shared/api/validators/delete-webhook.generated';
import { httpHandler, noContent } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';
import { removeWebhook } from '../../shared/webhooks/endpoints';

export const handler = httpHandler(
  validators,
  async ({ caller }) => {
    await removeWebhook(caller);
    return noContent();
  },
  problemFace,
);
