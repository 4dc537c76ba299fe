import { validators } from '../../shared/api/validators/delete-usage-webhook.generated';
import { httpHandler, noContent } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';
import { removeWebhook, usageAlertsOwner } from '../../shared/webhooks/endpoints';

export const handler = httpHandler(
  validators,
  async ({ caller }) => {
    await removeWebhook(usageAlertsOwner(caller.operatorId));
    return noContent();
  },
  problemFace,
);
