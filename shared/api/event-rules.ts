/**
 * The platform events that feed built-in meters: which events (source and
 * detail-type on EventBridge) feed which meter, and which detail fields the
 * entry's ExtraInfo carries. The CDK stack makes one EventBridge rule per
 * row; the local event bus matches PutEvents entries against the same rows;
 * the record-platform-event function reads the fields from them. Free of CDK
 * imports, because the function bundles it.
 */
export interface PlatformEventRule {
  /** Rule name stem, unique. */
  id: string;
  /** The built-in meter the event counts on, with Usage 1. */
  meter: string;
  source: string;
  detailType: string;
  /** Detail fields copied, in this order, into the entry's ExtraInfo JSON; required in the detail. */
  extraInfoFields: readonly string[];
}

/** The bus the platform publishes on. */
export const PLATFORM_EVENT_BUS = 'default';

/** Every event names the operator it happened for in this detail field. */
export const OPERATOR_FIELD = 'OperatorID';

export const eventRules: readonly PlatformEventRule[] = [
  {
    id: 'order-completed',
    meter: 'order-completed',
    source: 'platform.orders',
    detailType: 'Order Completed',
    extraInfoFields: ['BasketID'],
  },
  {
    id: 'waitlist-notified',
    meter: 'waitlist-notified',
    source: 'platform.waitlists',
    detailType: 'Waitlist Notification Sent',
    extraInfoFields: ['WaitlistID', 'MultiBookingID'],
  },
  {
    id: 'workflow-email-sent',
    meter: 'workflow-email-sent',
    source: 'platform.workflows',
    detailType: 'Workflow Email Sent',
    extraInfoFields: [],
  },
];

/** The function every rule targets, relative to the project root like the route table's entries. */
export const recordPlatformEventEntry = 'functions/events/record-platform-event.ts';

/** The rule an event matches, as EventBridge would match it by its pattern. */
export const ruleFor = (event: { source?: unknown; 'detail-type'?: unknown }): PlatformEventRule | undefined =>
  eventRules.find((rule) => event.source === rule.source && event['detail-type'] === rule.detailType);

export const builtInMeters: ReadonlySet<string> = new Set(eventRules.map((rule) => rule.meter));
