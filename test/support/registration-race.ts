import type { ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/lib-dynamodb';
import type { InitializeMiddleware } from '@smithy/types';
import { findActiveKey } from '../../shared/accounts/api-keys';
import { documentClient } from '../../shared/db/client';
import * as webhookKeys from '../../shared/db/webhook-keys';
import type { Response, Send } from './contract-timeslots';
import type { TestOperator } from './fixtures';

/**
 * Runs `run` while each write of the webhook endpoint item of partition
 * `pk` that `precedes` picks (given the item written and how many other
 * registrations were made so far) is preceded by `other`, another whole
 * registration: what a registration meets when others are written between
 * its read and its write. The local host runs the handlers in this process,
 * on this document client. What the others answered, in order.
 */
export async function withRegistrationsBefore<T>(
  pk: string,
  precedes: (item: Record<string, unknown>, made: number) => boolean,
  other: () => Promise<T>,
  run: () => Promise<void>,
): Promise<T[]> {
  const client = documentClient();
  const others: T[] = [];
  let registering = false;
  const interleave: InitializeMiddleware<ServiceInputTypes, ServiceOutputTypes> = (next) => async (args) => {
    const item = (args.input as { Item?: Record<string, unknown> }).Item;
    if (!registering && item?.Entity === 'WebhookEndpoint' && item.PK === pk && precedes(item, others.length)) {
      registering = true;
      try {
        others.push(await other());
      } finally {
        registering = false;
      }
    }
    return next(args);
  };
  client.middlewareStack.add(interleave, { step: 'initialize', name: 'registrationsBefore' });
  try {
    await run();
  } finally {
    client.middlewareStack.remove('registrationsBefore');
  }
  return others;
}

/** The answer to a registration (`register`, of a URL) that meets another registration before each of its writes: a 409. */
export async function contendedRegistration<T>(pk: string, register: (url: string) => Promise<T>): Promise<T> {
  const [lost, won] = ['https://lost.example.com/hooks', 'https://won.example.com/hooks'];
  let answer: T | undefined;
  await withRegistrationsBefore(
    pk,
    (item) => item.Url === lost,
    () => register(won),
    async () => {
      answer = await register(lost);
    },
  );
  return answer as T;
}

/** The 409 of PUT /api/v2/ota/webhook (`send`): a registration of a new key's endpoint that meets another before each of its writes. */
export async function contendedPartnerRegistration(operator: TestOperator, send: Send): Promise<Response> {
  const key = await operator.keyWith(['ota']);
  const endpoint = webhookKeys.endpoint(operator.operatorId, (await findActiveKey(key))!.KeyID);
  return contendedRegistration(endpoint.PK, (url) => send({ key, body: { Url: url } }));
}
