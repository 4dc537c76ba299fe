import { httpHandler, ok } from '../../shared/http/handler';
import { registerWebhook } from '../../shared/webhooks/endpoints';

const body = {
  type: 'object',
  additionalProperties: false,
  required: ['Url'],
  properties: { Url: { type: 'string', minLength: 1, errorMessage: 'must be the https URL deliveries are POSTed to' } },
} as const;

export const handler = httpHandler<unknown, unknown, { Url: string }>({ body }, async ({ caller, body }) =>
  ok(await registerWebhook(caller, body.Url)),
);
