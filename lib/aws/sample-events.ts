import { randomBytes } from 'node:crypto';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { eventRules, extraInfoFieldsOf, PLATFORM_EVENT_BUS } from '../../shared/api/event-rules';
import { OPERATOR_FIELD } from '../../shared/usage/built-in-meters';

export interface SentSample {
  source: string;
  detailType: string;
  detail: string;
  eventId: string;
}

/**
 * Publishes a sample event of every built-in meter (or of one) for an
 * operator, with the real EventBridge client: to the local host's event bus
 * when `endpoint` is given, else to the account's bus in AWS.
 */
export async function emitSampleEvents(operatorId: string, options: { meter?: string; endpoint?: string } = {}): Promise<SentSample[]> {
  const rules = eventRules.filter((rule) => !options.meter || rule.meter === options.meter);
  if (!rules.length)
    throw new Error(`'${options.meter}' is not a built-in meter; one of: ${eventRules.map((rule) => rule.meter).join(', ')}`);
  const entries = rules.map((rule) => ({
    EventBusName: PLATFORM_EVENT_BUS,
    Source: rule.source,
    DetailType: rule.detailType,
    Detail: JSON.stringify({
      [OPERATOR_FIELD]: operatorId,
      ...Object.fromEntries(extraInfoFieldsOf(rule).map((field) => [field, `sample-${randomBytes(4).toString('hex')}`])),
    }),
  }));
  const client = new EventBridgeClient(
    options.endpoint
      ? { endpoint: options.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {},
  );
  try {
    const { Entries = [], FailedEntryCount = 0 } = await client.send(new PutEventsCommand({ Entries: entries }));
    if (FailedEntryCount > 0) {
      throw new Error(
        `EventBridge refused ${FailedEntryCount} event(s): ${Entries.map((entry) => entry.ErrorMessage)
          .filter(Boolean)
          .join('; ')}`,
      );
    }
    return entries.map((entry, i) => ({
      source: entry.Source,
      detailType: entry.DetailType,
      detail: entry.Detail,
      eventId: Entries[i]?.EventId ?? '',
    }));
  } finally {
    client.destroy();
  }
}
