import { webhookEndpointBody } from '../../webhooks/schemas';
import { webhookEndpoint } from '../examples';
import type { Operation } from '../operation';
import type { RouteId } from '../routes';

/** Webhooks: a partner key's one endpoint. */
export const webhookOperations = {
  'put-webhook': {
    request: { body: webhookEndpointBody },
    docs: {
      tag: 'Webhooks',
      summary: "Register the key's webhook endpoint",
      description:
        'One endpoint per API key; registering again replaces it and issues a new signing secret; the secret it replaces still signs deliveries beside the new one for 24 hours (a second `v1,` signature in `webhook-signature`), so a receiver has a day to change secrets. Registrations sent at the same moment are written one after the other, each secret answered still signing; one that keeps meeting others is 409, changing nothing: send it again. The answer shows the secret (`whsec_...`) this once; it is kept encrypted, and only the sender can read it. `EventTypes` chooses what it receives: `booking.confirmed`, `booking.cancelled`, `hold.expired` (of the bookings this key sold: the default, without `EventTypes`), `availability.changed` (every change of places or status of a timeslot of the operator’s visible products, whatever the channel: `{ ActivityID, Date, Time, StartsAt, Status, Vacancies, Capacity, ChangedAt, Sequence }`, `StartsAt` the start instant with its offset, as availability shows it, coalesced per timeslot: the first change of a quiet timeslot at once, later ones within 5 seconds as one, the last state always; apply one only when its `Sequence` is above the last you applied) and `product.changed` (a visible product changed, or was hidden). The URL must be https to a public host on port 443 (or a port the operator allows): only global unicast addresses are connected to (private, loopback, link-local, reserved addresses and IPv6 forms that embed an IPv4 address are refused), here and again on every delivery after DNS. Deliveries carry `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` as Standard Webhooks specifies; a 2xx within 10 seconds (connected within 3) counts as delivered, at most 2 attempts to one endpoint are in flight at once, anything else is retried with exponential backoff for 24 hours; an endpoint that receives none of its events for a day is marked failing until registered again.',
      success: {
        status: 200,
        description: 'The endpoint, with its secret shown this once',
        data: 'IssuedWebhookEndpoint',
        example: { ...webhookEndpoint, Secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3jHnP8ZnCmk=' },
      },
      errors: [409],
      requestExample: { Url: webhookEndpoint.Url, EventTypes: webhookEndpoint.EventTypes },
    },
  },
  'get-webhook': {
    docs: {
      tag: 'Webhooks',
      summary: "Read the key's webhook endpoint",
      description:
        'The registered URL, the events it receives and whether it takes deliveries; never the secret. While attempts fail, `FailingSince` names the oldest event not received since the last one that was; after a day of that the endpoint is `FAILING`: nothing more is sent, events for it are given up, until it is registered again (PUT). 404 when the key has none.',
      success: { status: 200, description: 'The endpoint', data: 'WebhookEndpoint', example: webhookEndpoint },
      errors: [404],
    },
  },
  'delete-webhook': {
    docs: {
      tag: 'Webhooks',
      summary: "Remove the key's webhook endpoint",
      description: 'Nothing more is sent to it; deliveries still pending are given up. 404 when the key has none.',
      success: { status: 204, description: 'Removed' },
      errors: [404],
    },
  },
} as const satisfies Partial<Record<RouteId, Operation>>;
