import type { FromSchema } from 'json-schema-to-ts';
import { UUID_PATTERN } from '../../booking/constants';
import { OCTO_NOTIFICATION_TYPES } from '../../webhooks/model';
import { MAX_WEBHOOK_URL_LENGTH } from '../../webhooks/targets';

/**
 * OCTo's notifications capability on the wire (docs.octo.travel): a
 * subscription is a URL, the notification types it wants and the headers
 * to send with each notification. Requests ignore fields they do not know,
 * as every OCTo request does; a PATCH replaces the fields it names.
 */

/** HTTP's token characters (RFC 9110), what a header name is made of. */
const HEADER_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$";
/** Visible ASCII, spaces and tabs: no line break can split a header in two. */
const HEADER_VALUE_PATTERN = '^[\\x20-\\x7E\\t]*$';
export const MAX_SUBSCRIPTION_HEADERS = 10;

const url = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_WEBHOOK_URL_LENGTH,
  errorMessage: 'must be the https URL notifications are POSTed to',
} as const;

const notificationTypes = {
  type: 'array',
  minItems: 1,
  uniqueItems: true,
  items: { type: 'string', enum: OCTO_NOTIFICATION_TYPES },
  errorMessage: `must be a list of distinct notification types, each one of ${OCTO_NOTIFICATION_TYPES.join(', ')}`,
} as const;

const headers = {
  type: 'object',
  maxProperties: MAX_SUBSCRIPTION_HEADERS,
  propertyNames: { pattern: HEADER_NAME_PATTERN },
  additionalProperties: { type: 'string', maxLength: 1024, pattern: HEADER_VALUE_PATTERN },
  errorMessage: `must be an object of at most ${MAX_SUBSCRIPTION_HEADERS} HTTP headers: names of 1 to 64 token characters, values of at most 1024 visible ASCII characters`,
} as const;

export const subscriptionPath = {
  type: 'object',
  required: ['subscriptionId'],
  properties: {
    subscriptionId: { type: 'string', minLength: 1, maxLength: 200, errorMessage: 'must be a subscription ID of 1 to 200 characters' },
  },
} as const;

/** POST /octo/notifications/subscriptions */
export const subscriptionBody = {
  type: 'object',
  required: ['url', 'notificationTypes'],
  properties: { url, notificationTypes, headers },
} as const;

/** PATCH /octo/notifications/subscriptions/{subscriptionId}: the fields given replace those held. */
export const subscriptionUpdateBody = {
  type: 'object',
  properties: { url, notificationTypes, headers },
} as const;

export type SubscriptionBody = FromSchema<typeof subscriptionBody>;

/** A subscription as every route answers it. */
export const subscriptionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'url', 'notificationTypes', 'headers'],
  properties: {
    id: { type: 'string', pattern: UUID_PATTERN, description: 'The subscription, to read, change or delete it by' },
    url: { type: 'string', description: 'Where notifications are POSTed' },
    notificationTypes: { type: 'array', items: { type: 'string', enum: OCTO_NOTIFICATION_TYPES } },
    headers: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Sent with every notification, as the subscriber set them',
    },
  },
} as const;
export type Subscription = FromSchema<typeof subscriptionSchema>;
