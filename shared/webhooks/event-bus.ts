import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { awsClient } from '../core/aws-client';
import { timedCalls } from '../core/observability';
import type { DeliveryItem } from './model';
import type { PostOutcome } from './outbound';

/**
 * The sender's one call to EventBridge: a delivery put on the account's
 * default bus as one event, of the delivery's Source and DetailType, whose
 * detail is its Payload. A put EventBridge refuses (or cannot be reached
 * for) is a failed attempt, retried as a webhook's is.
 */
// Pure: a function that imports this module without putting on the bus carries no EventBridge client.
const events = /* @__PURE__ */ awsClient((options) => {
  const client = new EventBridgeClient(options);
  timedCalls(client, 'EventBridge');
  return client;
});

export async function putOnBus(delivery: DeliveryItem): Promise<PostOutcome> {
  try {
    const { FailedEntryCount, Entries } = await events().send(
      new PutEventsCommand({ Entries: [{ Source: delivery.Source, DetailType: delivery.DetailType, Detail: delivery.Payload }] }),
    );
    if (!FailedEntryCount) return { ok: true, status: 200 };
    const [entry] = Entries ?? [];
    return { ok: false, error: `EventBridge refused the event: ${entry?.ErrorCode ?? 'unknown'} ${entry?.ErrorMessage ?? ''}`.trim() };
  } catch (error) {
    return { ok: false, error: `EventBridge: ${error instanceof Error ? error.message : String(error)}` };
  }
}
