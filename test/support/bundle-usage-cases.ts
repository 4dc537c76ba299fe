import { putUsageLimit } from '../../shared/usage/limits';
import { registerWebhook, usageAlertsOwner } from '../../shared/webhooks/endpoints';

/**
 * The bundles test's cases of the usage limits' and the usage webhook's
 * routes (test/integration/bundles.test.ts), and what each operator needs
 * before them: a limit to delete and a usage endpoint.
 */
const usageLimit = { Meter: 'api-calls', Period: 'MONTH' as const, Amount: 100, Thresholds: [80], Enforcement: 'REFUSE' as const };

export async function prepareUsageRoutes(operatorId: string): Promise<void> {
  await putUsageLimit({ operatorId, timeZone: 'Europe/Lisbon' }, 'doomed', usageLimit);
  await registerWebhook(usageAlertsOwner(operatorId), { Url: 'https://billing.example.com/hooks/usage' });
}

export const usageRouteCases = {
  'put-usage-limit': () => ({
    accepted: { path: { LimitID: 'bundled' }, body: usageLimit },
    refused: { path: { LimitID: 'bundled' }, body: { ...usageLimit, Thresholds: [150] } },
    refusedStatus: 422,
  }),
  'list-usage-limits': () => ({ accepted: {} }),
  'get-usage-limit': () => ({ accepted: { path: { LimitID: 'bundled' } }, refused: { path: { LimitID: 'missing' } }, refusedStatus: 404 }),
  'delete-usage-limit': () => ({
    accepted: { path: { LimitID: 'doomed' } },
    refused: { path: { LimitID: 'missing' } },
    refusedStatus: 404,
    ownOperators: true,
  }),
  'get-usage-limit-status': () => ({
    accepted: { path: { LimitID: 'bundled' } },
    refused: { path: { LimitID: 'a.b' } },
    refusedStatus: 400,
  }),
  'put-usage-webhook': () => ({
    accepted: { body: { Url: 'https://billing.example.com/hooks/usage' } },
    refused: { body: { Url: 'https://127.0.0.1/hooks' } },
    refusedStatus: 422,
    masked: ['Secret', 'CreatedAt'],
  }),
  'get-usage-webhook': () => ({ accepted: {}, refused: { operatorId: 'op_closed' }, refusedStatus: 404, masked: ['CreatedAt'] }),
  'delete-usage-webhook': () => ({ accepted: {}, refused: { operatorId: 'op_closed' }, refusedStatus: 404, ownOperators: true }),
};
