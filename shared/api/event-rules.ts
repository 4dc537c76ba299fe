import { BUILT_IN_METERS, type BuiltInMeter } from '../usage/built-in-meters';

/**
 * The platform events that feed built-in meters: which events (source and
 * detail-type on EventBridge) feed which meter of the usage domain. The CDK
 * stack makes one EventBridge rule per row; the local event bus matches
 * PutEvents entries against the same rows; the record-platform-event
 * function finds its meter by them. Free of CDK imports, because the
 * function bundles it.
 */
export interface PlatformEventRule {
  /** Rule name stem, unique. */
  id: string;
  /** The built-in meter the event counts on, with Usage 1. */
  meter: BuiltInMeter;
  source: string;
  detailType: string;
}

/** The bus the platform publishes on. */
export const PLATFORM_EVENT_BUS = 'default';

/** The detail fields an event of this rule carries into its entry's ExtraInfo (required in the detail). */
export const extraInfoFieldsOf = (rule: PlatformEventRule): readonly string[] => BUILT_IN_METERS[rule.meter].extraInfoFields;

export const eventRules: readonly PlatformEventRule[] = [
  {
    id: 'order-completed',
    meter: 'order-completed',
    source: 'platform.orders',
    detailType: 'Order Completed',
  },
  {
    id: 'waitlist-notified',
    meter: 'waitlist-notified',
    source: 'platform.waitlists',
    detailType: 'Waitlist Notification Sent',
  },
  {
    id: 'workflow-email-sent',
    meter: 'workflow-email-sent',
    source: 'platform.workflows',
    detailType: 'Workflow Email Sent',
  },
];

/** The function every rule targets, relative to the project root like the route table's entries. */
export const recordPlatformEventEntry = 'functions/events/record-platform-event.ts';

/** The rule an event matches, as EventBridge would match it by its pattern. */
export const ruleFor = (event: { source?: unknown; 'detail-type'?: unknown }): PlatformEventRule | undefined =>
  eventRules.find((rule) => event.source === rule.source && event['detail-type'] === rule.detailType);
