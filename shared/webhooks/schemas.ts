import type { FromSchema } from 'json-schema-to-ts';
import { USAGE_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from './model';

/** Webhook endpoints on the wire: the PUT bodies, and the endpoint as GET and PUT answer it. */

const eventTypes = {
  type: 'array',
  items: { type: 'string', enum: WEBHOOK_EVENT_TYPES },
  minItems: 1,
  uniqueItems: true,
  description: 'The events the endpoint receives; without it `booking.confirmed`, `booking.cancelled` and `hold.expired`',
} as const;

/** PUT /api/v2/ota/webhook */
export const webhookEndpointBody = {
  type: 'object',
  additionalProperties: false,
  required: ['Url'],
  properties: {
    Url: { type: 'string', minLength: 1, errorMessage: 'must be the https URL deliveries are POSTed to' },
    EventTypes: {
      ...eventTypes,
      // An unknown type inside the list is named with the same words as a list that is not one.
      items: { ...eventTypes.items, errorMessage: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` },
      errorMessage: `must be a list of distinct event types, each one of ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    },
  },
} as const;

/** PUT /api/v2/usage/webhook: the operator's usage endpoint receives its usage events, none to choose. */
export const usageWebhookBody = {
  type: 'object',
  additionalProperties: false,
  required: ['Url'],
  properties: { Url: webhookEndpointBody.properties.Url },
} as const;

const endpointProperties = {
  Url: { type: 'string', description: 'Where deliveries are POSTed' },
  EventTypes: {
    ...eventTypes,
    items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES, ...USAGE_EVENT_TYPES] },
    description:
      "The events the endpoint receives: a partner's those it chose (the three booking events unless it chose), the operator's usage endpoint its usage events",
  },
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
  required: ['Url', 'EventTypes', 'CreatedAt', 'Status'],
  properties: endpointProperties,
} as const;
export type WebhookEndpoint = FromSchema<typeof webhookEndpointSchema>;

/** The endpoint as PUT answers it: the only time the secret is shown. */
export const issuedWebhookEndpointSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Url', 'EventTypes', 'CreatedAt', 'Status', 'Secret'],
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
