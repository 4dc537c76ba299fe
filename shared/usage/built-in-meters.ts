/**
 * The meters the platform's own events record (README, "Platform events"):
 * each event is one entry of Usage 1 for the operator its detail names, with
 * these detail fields copied into the entry's ExtraInfo. Clients cannot
 * record them (entry-rules.ts). Which EventBridge events feed which meter is
 * the contract's business (shared/api/event-rules.ts).
 */
export const BUILT_IN_METERS = {
  'order-completed': { extraInfoFields: ['BasketID'] },
  'waitlist-notified': { extraInfoFields: ['WaitlistID', 'MultiBookingID'] },
  'workflow-email-sent': { extraInfoFields: [] },
} as const satisfies Record<string, { extraInfoFields: readonly string[] }>;

export type BuiltInMeter = keyof typeof BUILT_IN_METERS;

/** Every platform event names the operator it happened for in this detail field. */
export const OPERATOR_FIELD = 'OperatorID';

/** Case-insensitively, so that no custom meter can pass for a built-in one in a summary. */
export const isBuiltInMeter = (meter: string): boolean => Object.hasOwn(BUILT_IN_METERS, meter.toLowerCase());
