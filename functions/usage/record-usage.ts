import { created, httpHandler } from '../../shared/http/handler';
import { recordUsage } from '../../shared/usage/record-usage';
import { MAX_EXTRA_INFO_LENGTH, MAX_OCCURRED_AT, MAX_USAGE, METER_PATTERN, METER_RULE, USAGE_RULE, type UsageInput } from '../../shared/usage/model';

const body = {
  type: 'object',
  required: ['Meter', 'Usage'],
  additionalProperties: false,
  properties: {
    Meter: { type: 'string', pattern: METER_PATTERN, errorMessage: METER_RULE },
    Usage: { type: 'number', exclusiveMinimum: 0, maximum: MAX_USAGE, errorMessage: USAGE_RULE },
    ExtraInfo: { type: 'string', maxLength: MAX_EXTRA_INFO_LENGTH, errorMessage: `must be a string of at most ${MAX_EXTRA_INFO_LENGTH} characters` },
    OccurredAt: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_OCCURRED_AT,
      errorMessage: `must be an integer Unix timestamp in seconds from 0 to ${MAX_OCCURRED_AT} (9998-12-31T23:59:59Z)`,
    },
  },
};

/** No Location: entries are read through summaries, not one by one. */
export const handler = httpHandler<unknown, unknown, UsageInput>({ body }, async ({ caller, body, headers }) => {
  const { entry, replayed } = await recordUsage(caller.operatorId, body, { idempotencyKey: headers['idempotency-key'] });
  return created(entry, { replayed });
});
