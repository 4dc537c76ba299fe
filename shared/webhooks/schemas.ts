import type { FromSchema } from 'json-schema-to-ts';

/** A partner's webhook endpoint on the wire: the PUT body, and the endpoint as GET and PUT answer it. */

/** PUT /api/v2/ota/webhook */
export const webhookEndpointBody = {
  type: 'object',
  additionalProperties: false,
  required: ['Url'],
  properties: { Url: { type: 'string', minLength: 1, errorMessage: 'must be the https URL deliveries are POSTed to' } },
} as const;

const endpointProperties = {
  Url: { type: 'string', description: 'Where deliveries are POSTed' },
  CreatedAt: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC instant' },
  Status: {
    type: 'string',
    enum: ['ACTIVE', 'FAILING'],
    description:
      'FAILING once it has received none of its events for a day: nothing more is sent to it, and events for it are given up, until it is registered again',
  },
  FailingSince: {
    type: 'string',
    format: 'date-time',
    description: 'While attempts to it fail: the oldest event it has not received since it last received one',
  },
  MarkedFailingAt: { type: 'string', format: 'date-time', description: 'FAILING only: when it was marked failing' },
} as const;

/** The endpoint as GET answers it: never the secret. */
export const webhookEndpointSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Url', 'CreatedAt', 'Status'],
  properties: endpointProperties,
} as const;
export type WebhookEndpoint = FromSchema<typeof webhookEndpointSchema>;

/** The endpoint as PUT answers it: the only time the secret is shown. */
export const issuedWebhookEndpointSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Url', 'CreatedAt', 'Status', 'Secret'],
  properties: {
    ...endpointProperties,
    Secret: {
      type: 'string',
      pattern: '^whsec_[A-Za-z0-9+/]+=*$',
      description: 'The signing secret, shown only in this answer; verify deliveries with it (any Standard Webhooks library)',
    },
  },
} as const;
export type IssuedWebhookEndpoint = FromSchema<typeof issuedWebhookEndpointSchema>;
