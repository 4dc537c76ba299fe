import { validators } from '../../shared/api/validators/get-usage-webhook.generated';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';
import { readWebhook, usageAlertsOwner } from '../../shared/webhooks/endpoints';

export const handler = httpHandler(
  validators,
  async ({ caller }) => ok(await readWebhook(usageAlertsOwner(caller.operatorId))),
  problemFace,
);
