import { MAX_SUBSCRIPTIONS_PER_KEY } from '../../shared/webhooks/subscriptions';
import type { HttpClient } from './fixtures';
import { OCTO, octoClient, type octoWorld } from './octo';

/**
 * How to provoke each answer of the notifications capability's routes, named
 * by status and OCTo error code, for octo-contract.test.ts's table.
 */
type Response = Awaited<ReturnType<HttpClient>>;

const subscription = () => ({
  url: 'https://reseller.example.com/octo/notifications',
  notificationTypes: ['AVAILABILITY_UPDATE', 'BOOKING_UPDATE'],
  headers: { 'Api-Key': 'receiver-secret' },
});

const tooLarge = 'x'.repeat(6 * 1024 * 1024 + 1);

export function notificationCases(
  world: ReturnType<typeof octoWorld>['world'],
  unknownId: string,
): Record<string, Record<string, () => Promise<Response>>> {
  /** A subscription of the world's key, as the OCTo answer. */
  const subscribed = async () => {
    const response = await world.octo('POST', '/notifications/subscriptions', subscription());
    expect(response.status).toBe(200);
    return response.json;
  };
  const INVALID_UUID = unknownId;
  return {
    'octo-create-subscription': {
      '200': () => world.octo('POST', '/notifications/subscriptions', subscription()),
      '400 UNPROCESSABLE_ENTITY': async () => {
        const octo = octoClient(world.request, await world.operator.keyWith(['ota']));
        for (let made = 0; made < MAX_SUBSCRIPTIONS_PER_KEY; made += 1) {
          expect((await octo('POST', '/notifications/subscriptions', subscription())).status).toBe(200);
        }
        return octo('POST', '/notifications/subscriptions', subscription());
      },
      '400 BAD_REQUEST': () => world.octo('POST', '/notifications/subscriptions', { ...subscription(), headers: { 'Bad Name': 'x' } }),
      '413': () =>
        world.request('POST', `${OCTO}/notifications/subscriptions`, {
          key: world.operator.key,
          rawBody: tooLarge,
          headers: { 'Content-Type': 'application/json' },
        }),
    },
    'octo-list-subscriptions': {
      '200': async () => {
        await world.octo('POST', '/notifications/subscriptions', subscription());
        return world.octo('GET', '/notifications/subscriptions');
      },
    },
    'octo-get-subscription': {
      '200': async () => world.octo('GET', `/notifications/subscriptions/${(await subscribed()).id}`),
      '400 BAD_REQUEST': () => world.octo('GET', `/notifications/subscriptions/${INVALID_UUID}`),
    },
    'octo-update-subscription': {
      '200': async () =>
        world.octo('PATCH', `/notifications/subscriptions/${(await subscribed()).id}`, { notificationTypes: ['PRODUCT_UPDATE'] }),
      '400 BAD_REQUEST': async () =>
        world.octo('PATCH', `/notifications/subscriptions/${(await subscribed()).id}`, { url: 'https://10.0.0.1/hooks' }),
      '413': () =>
        world.request('PATCH', `${OCTO}/notifications/subscriptions/${INVALID_UUID}`, {
          key: world.operator.key,
          rawBody: tooLarge,
          headers: { 'Content-Type': 'application/json' },
        }),
    },
    'octo-delete-subscription': {
      '200': async () => world.octo('DELETE', `/notifications/subscriptions/${(await subscribed()).id}`),
      '400 BAD_REQUEST': () => world.octo('DELETE', `/notifications/subscriptions/${INVALID_UUID}`),
    },
  };
}
