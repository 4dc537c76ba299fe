import {
  CreateApiKeyCommand,
  CreateUsagePlanCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
  GetUsagePlansCommand,
  type UsagePlan,
} from '@aws-sdk/client-api-gateway';
import { createGatewayKey, deleteGatewayKey, moveGatewayKey, type ApiTarget } from '../../lib/aws/gateway-keys';
import type { ApiKeyRecord } from '../../shared/accounts/api-keys';

/**
 * API Gateway cannot run here: the client is replaced by a small model of
 * the account (plans, their keys, API keys) that answers the commands the
 * admin CLI sends, so the tests check the effect, not the call sequence alone.
 */
function fakeAccount(plans: (UsagePlan & { keys: string[] })[] = []) {
  const apiKeys = new Map<string, { name?: string; value?: string }>();
  const sent: string[] = [];
  let next = 1;
  const client: ApiTarget['client'] = {
    send: (async (command: { input: any; constructor: { name: string } }) => {
      sent.push(command.constructor.name);
      const input = command.input;
      if (command instanceof GetUsagePlansCommand) {
        // Two plans a page, to exercise paging.
        const matching = plans.filter((plan) => !input.keyId || plan.keys.includes(input.keyId));
        const start = Number(input.position ?? 0);
        const items = matching.slice(start, start + 2);
        return { items, position: start + 2 < matching.length ? String(start + 2) : undefined };
      }
      if (command instanceof CreateUsagePlanCommand) {
        const plan = { id: `plan${next++}`, name: input.name, throttle: input.throttle, apiStages: input.apiStages, keys: [] };
        plans.push(plan);
        return plan;
      }
      if (command instanceof CreateApiKeyCommand) {
        const id = `apikey${next++}`;
        apiKeys.set(id, { name: input.name, value: input.value });
        return { id };
      }
      if (command instanceof CreateUsagePlanKeyCommand) {
        plans.find((plan) => plan.id === input.usagePlanId)!.keys.push(input.keyId);
        return {};
      }
      if (command instanceof DeleteUsagePlanKeyCommand) {
        const plan = plans.find((candidate) => candidate.id === input.usagePlanId)!;
        plan.keys = plan.keys.filter((key) => key !== input.keyId);
        return {};
      }
      if (command instanceof DeleteApiKeyCommand) {
        apiKeys.delete(input.apiKey);
        for (const plan of plans) plan.keys = plan.keys.filter((key) => key !== input.apiKey);
        return {};
      }
      throw new Error(`Unexpected ${command.constructor.name}`);
    }) as ApiTarget['client']['send'],
  };
  const keysOf = (name: string) => plans.find((plan) => plan.name === name)?.keys ?? [];
  return { target: { client, apiId: 'abc123', stage: 'v1' } as ApiTarget, plans, apiKeys, sent, keysOf };
}

const record: ApiKeyRecord = {
  KeyID: 'key_partner1',
  OperatorID: 'op-1',
  Scopes: ['ota'],
  Name: 'Partner',
  Status: 'ACTIVE',
  CreatedAt: '2026-01-01T00:00:00.000Z',
  UsageIdentifierKey: 'uk_0123456789abcdefghijklmnopqrstuv',
};

const existingPlans = () => [
  { id: 'p-a', name: 'other-api-v1-rate-50-burst-100', keys: [] },
  { id: 'p-b', name: 'abc123-v1-rate-1-burst-1', keys: [] },
  { id: 'p-default', name: 'abc123-v1-rate-50-burst-100', keys: [] },
];

describe('API Gateway keys and usage plans (--aws)', () => {
  it('puts a new key, valued with its usage identifier, into the existing plan of its limits', async () => {
    // Prepare
    const account = fakeAccount(existingPlans());
    // Act
    const id = await createGatewayKey(account.target, record, { rateLimit: 50, burstLimit: 100 });
    // Assess
    expect(account.apiKeys.get(id)).toEqual({ name: 'key_partner1', value: record.UsageIdentifierKey });
    expect(account.keysOf('abc123-v1-rate-50-burst-100')).toEqual([id]);
    expect(account.sent).not.toContain('CreateUsagePlanCommand');
  });

  it('makes the plan of new limits on the API stage once, and shares it between keys', async () => {
    const account = fakeAccount(existingPlans());
    const first = await createGatewayKey(account.target, record, { rateLimit: 5, burstLimit: 10 });
    const second = await createGatewayKey(account.target, { ...record, KeyID: 'key_partner2' }, { rateLimit: 5, burstLimit: 10 });
    const created = account.plans.filter((plan) => plan.name === 'abc123-v1-rate-5-burst-10');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ throttle: { rateLimit: 5, burstLimit: 10 }, apiStages: [{ apiId: 'abc123', stage: 'v1' }] });
    expect(created[0].keys).toEqual([first, second]);
  });

  it('moves a key to the plan of its new limits and out of the old one', async () => {
    const account = fakeAccount(existingPlans());
    const id = await createGatewayKey(account.target, record, { rateLimit: 50, burstLimit: 100 });
    await moveGatewayKey(account.target, id, { rateLimit: 1, burstLimit: 1 });
    expect(account.keysOf('abc123-v1-rate-1-burst-1')).toEqual([id]);
    expect(account.keysOf('abc123-v1-rate-50-burst-100')).toEqual([]);
    // Moving to the plan it is in changes nothing.
    await moveGatewayKey(account.target, id, { rateLimit: 1, burstLimit: 1 });
    expect(account.keysOf('abc123-v1-rate-1-burst-1')).toEqual([id]);
  });

  it('deletes the API key on revoke, which takes it out of its plan', async () => {
    const account = fakeAccount(existingPlans());
    const id = await createGatewayKey(account.target, record, { rateLimit: 50, burstLimit: 100 });
    await deleteGatewayKey(account.target, id);
    expect(account.apiKeys.has(id)).toBe(false);
    expect(account.plans.flatMap((plan) => plan.keys)).toEqual([]);
  });

  it('refuses a key without a usage identifier', async () => {
    const account = fakeAccount(existingPlans());
    await expect(
      createGatewayKey(account.target, { ...record, UsageIdentifierKey: undefined }, { rateLimit: 5, burstLimit: 10 }),
    ).rejects.toThrow(/set-key-limits/);
    expect(account.sent).toEqual([]);
  });
});
