import { MAX_LIMITS, MAX_METER_LIMITS } from '../../usage/limit-model';
import { usageLimitBody, usageLimitPath } from '../../usage/limit-schemas';
import { usageWebhookBody } from '../../webhooks/schemas';
import { usageLimit, usageLimitStatus, usageWebhookEndpoint } from '../examples';
import type { Operation } from '../operation';
import type { RouteId } from '../routes';

/** Usage limits: their definitions, their status, and the operator's endpoint for their alerts. */
export const usageLimitOperations = {
  'put-usage-limit': {
    request: { path: usageLimitPath, body: usageLimitBody },
    docs: {
      tag: 'Usage',
      summary: 'Create or change a usage limit',
      description: `A limit counts a meter's entries (those whose dimensions match \`Filter\`, when given, as a summary's \`filter[Key]\`) per \`Period\` (\`DAY\` or \`MONTH\` of \`TimeZone\`, the operator's zone when none is named) up to an exact \`Amount\`, and alerts once per period at each of its \`Thresholds\` (percentages of the Amount) as \`usage.threshold.crossed\` (and \`usage.threshold.resolved\` when a void takes Used back under), to the usage webhook endpoint and to EventBridge. \`Enforcement: REFUSE\` refuses (409 \`usage-limit-reached\`) an entry that would take Used past the Amount, exactly, however many write at once; \`NONE\` alerts only. A change of Amount or Thresholds applies from the current period on (\`AppliesFrom\`); putting the same definition again changes nothing. At most ${MAX_LIMITS} limits per operator and ${MAX_METER_LIMITS} per meter.`,
      success: { status: 200, description: 'The limit as it now is', data: 'UsageLimit', example: usageLimit },
      requestExample: {
        Meter: usageLimit.Meter,
        Filter: usageLimit.Filter,
        Period: usageLimit.Period,
        Amount: usageLimit.Amount,
        Thresholds: usageLimit.Thresholds,
        Enforcement: usageLimit.Enforcement,
      },
    },
  },
  'list-usage-limits': {
    docs: {
      tag: 'Usage',
      summary: 'List the usage limits',
      description: 'Every limit of the operator, by LimitID.',
      success: { status: 200, description: 'The limits', data: { listOf: 'UsageLimit' }, example: [usageLimit] },
    },
  },
  'get-usage-limit': {
    request: { path: usageLimitPath },
    docs: {
      tag: 'Usage',
      summary: 'Read a usage limit',
      description: "The limit's definition. 404 when the operator has no limit of that ID.",
      success: { status: 200, description: 'The limit', data: 'UsageLimit', example: usageLimit },
      errors: [404],
    },
  },
  'delete-usage-limit': {
    request: { path: usageLimitPath },
    docs: {
      tag: 'Usage',
      summary: 'Delete a usage limit',
      description: 'Entries are no longer counted against it nor refused by it, at once. 404 when the operator has no limit of that ID.',
      success: { status: 204, description: 'Deleted' },
      errors: [404],
    },
  },
  'get-usage-limit-status': {
    request: { path: usageLimitPath },
    docs: {
      tag: 'Usage',
      summary: "A usage limit's status: the entitlement check",
      description:
        "How much of the current period's Amount is used, from the usage aggregates (the items read do not grow with the entries): `Used` is what a summary of the same meter, filter and period answers, entries recorded before the limit existed included. `Allowed` is `Used < Amount`; `Remaining` is never below 0; `PeriodStart` and `ResetsAt` are Unix seconds. Read with strong consistency: an entry recorded a moment ago is counted.",
      success: { status: 200, description: 'The status now', data: 'UsageLimitStatus', example: usageLimitStatus },
      errors: [404],
    },
  },
  'put-usage-webhook': {
    request: { body: usageWebhookBody },
    docs: {
      tag: 'Usage',
      summary: "Register the operator's usage webhook endpoint",
      description:
        "Where `usage.threshold.crossed` and `usage.threshold.resolved` are sent, signed as Standard Webhooks specifies (as partners' deliveries are). One endpoint per operator; registering again replaces it and issues a new signing secret, shown this once; the secret it replaces still signs alerts beside the new one for 24 hours (409 when other registrations keep being written at the same moment: send it again). The URL rules are those of partners' endpoints: https to a public host on port 443 (or a port the operator allows).",
      success: {
        status: 200,
        description: 'The endpoint, with its secret shown this once',
        data: 'IssuedWebhookEndpoint',
        example: { ...usageWebhookEndpoint, Secret: 'whsec_3yU0k1nq8b2Vf7Lw9T4cXr6ZpA5sE1mGhJ0dKo2iQ8M=' },
      },
      errors: [409],
      requestExample: { Url: usageWebhookEndpoint.Url },
    },
  },
  'get-usage-webhook': {
    docs: {
      tag: 'Usage',
      summary: "Read the operator's usage webhook endpoint",
      description: 'The registered URL; never the secret. 404 when the operator has none.',
      success: { status: 200, description: 'The endpoint', data: 'WebhookEndpoint', example: usageWebhookEndpoint },
      errors: [404],
    },
  },
  'delete-usage-webhook': {
    docs: {
      tag: 'Usage',
      summary: "Remove the operator's usage webhook endpoint",
      description:
        'Alerts are no longer sent to it (EventBridge still hears them); deliveries still pending are given up. 404 when there is none.',
      success: { status: 204, description: 'Removed' },
      errors: [404],
    },
  },
} as const satisfies Partial<Record<RouteId, Operation>>;
