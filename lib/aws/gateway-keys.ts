import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
  GetUsagePlansCommand,
  type UsagePlan,
} from '@aws-sdk/client-api-gateway';
import { usagePlanName } from '../../shared/api/gateway';
import type { ApiKeyRecord, KeyLimits } from '../../shared/accounts/api-keys';

/**
 * The API Gateway half of a key, for the admin CLI's --aws mode. API Gateway
 * throttles a key by the usage plan its API key belongs to, and a plan has
 * one rate and burst for all its keys; so there is one plan per distinct
 * (rate, burst), named by usagePlanName, made on first need and shared by
 * every key with those limits. The stack makes the plan of the default limits.
 */
export interface ApiTarget {
  client: Pick<APIGatewayClient, 'send'>;
  apiId: string;
  stage: string;
}

async function plansWith(target: ApiTarget, filter: { keyId?: string } = {}): Promise<UsagePlan[]> {
  const plans: UsagePlan[] = [];
  let position: string | undefined;
  do {
    const page = await target.client.send(new GetUsagePlansCommand({ keyId: filter.keyId, position, limit: 500 }));
    plans.push(...(page.items ?? []));
    position = page.position;
  } while (position);
  return plans;
}

/** The ID of the plan for these limits on the API's stage, made if none exists yet. */
export async function planFor(target: ApiTarget, limits: KeyLimits): Promise<string> {
  const name = usagePlanName(target.apiId, target.stage, limits);
  const existing = (await plansWith(target)).find((plan) => plan.name === name);
  if (existing?.id) return existing.id;
  const created = await target.client.send(
    new CreateUsagePlanCommand({
      name,
      description: `API keys limited to ${limits.rateLimit} requests/s, ${limits.burstLimit} at once`,
      throttle: { rateLimit: limits.rateLimit, burstLimit: limits.burstLimit },
      apiStages: [{ apiId: target.apiId, stage: target.stage }],
    }),
  );
  return created.id as string;
}

/** Makes the key's API Gateway API key (its value: the usage identifier the authorizer returns) in the plan of its limits. */
export async function createGatewayKey(target: ApiTarget, record: ApiKeyRecord, limits: KeyLimits): Promise<string> {
  if (!record.UsageIdentifierKey) throw new Error(`Key ${record.KeyID} has no usage identifier; give it limits with set-key-limits first`);
  const usagePlanId = await planFor(target, limits);
  const apiKey = await target.client.send(
    new CreateApiKeyCommand({
      name: record.KeyID,
      description: `Operator ${record.OperatorID}: ${record.Name}`,
      value: record.UsageIdentifierKey,
      enabled: true,
    }),
  );
  await target.client.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId: apiKey.id, keyType: 'API_KEY' }));
  return apiKey.id as string;
}

/** Moves an API key into the plan of new limits, out of every other plan of the API. */
export async function moveGatewayKey(target: ApiTarget, apiGatewayKeyId: string, limits: KeyLimits): Promise<void> {
  const usagePlanId = await planFor(target, limits);
  const current = await plansWith(target, { keyId: apiGatewayKeyId });
  if (!current.some((plan) => plan.id === usagePlanId)) {
    await target.client.send(new CreateUsagePlanKeyCommand({ usagePlanId, keyId: apiGatewayKeyId, keyType: 'API_KEY' }));
  }
  for (const plan of current.filter((candidate) => candidate.id !== usagePlanId)) {
    await target.client.send(new DeleteUsagePlanKeyCommand({ usagePlanId: plan.id, keyId: apiGatewayKeyId }));
  }
}

/** Deletes the API key, which takes it out of its plan: a revoked key's identifier then matches no plan. */
export async function deleteGatewayKey(target: ApiTarget, apiGatewayKeyId: string): Promise<void> {
  await target.client.send(new DeleteApiKeyCommand({ apiKey: apiGatewayKeyId }));
}
