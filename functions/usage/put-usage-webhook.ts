import { validators } from '../../shared/api/validators/put-usage-webhook.generated';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';
import { registerWebhook, usageAlertsOwner } from '../../shared/webhooks/endpoints';

export const handler = httpHandler(
  validators,
  async ({ caller, body }) => ok(await registerWebhook(usageAlertsOwner(caller.operatorId), body)),
  problemFace,
);
