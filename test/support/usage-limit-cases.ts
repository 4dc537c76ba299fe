import { PLAIN_TEXT, TOO_LARGE, type Response as Answer, type Send } from './contract-timeslots';
import * as webhookKeys from '../../shared/db/webhook-keys';
import { createTestOperator } from './fixtures';
import { contendedRegistration } from './registration-race';

/*
 * The contract test's cases of the usage limits' routes (test/integration/contract.test.ts), each a real request.
 */

/** Sends to a route by its ID, its path parameters filled in, with the contract test's full-scope key unless told otherwise. */
export type Sender = (routeId: string, path?: Record<string, string>) => Send;

const monthlyLimit = { Meter: 'api-calls', Period: 'MONTH', Amount: 1000, Thresholds: [50, 100], Enforcement: 'NONE' };

/** A REFUSE limit of 1 on the meter 'capped' (putting it again changes nothing). */
export const cappedMeter = (send: Sender) =>
  send('put-usage-limit', { LimitID: 'capped' })({
    body: { Meter: 'capped', Period: 'MONTH', Amount: 1, Thresholds: [100], Enforcement: 'REFUSE' },
  });

/** How to provoke each status of the usage limits' routes and the usage webhook's. */
export function usageLimitCases(send: Sender): Record<string, Record<number, () => Promise<Answer>>> {
  const limit = (id: string) => ({ LimitID: id });
  const json = { 'Content-Type': 'application/json' };
  const put = (id: string) => send('put-usage-limit', limit(id))({ body: monthlyLimit });
  return {
    'put-usage-limit': {
      200: () => put('contract'),
      400: () => send('put-usage-limit', limit('contract'))({ rawBody: '{"Meter":', headers: json }),
      413: () => send('put-usage-limit', limit('contract'))({ rawBody: TOO_LARGE, headers: json }),
      415: () => send('put-usage-limit', limit('contract'))({ rawBody: JSON.stringify(monthlyLimit), headers: PLAIN_TEXT }),
      422: () => send('put-usage-limit', limit('contract'))({ body: { ...monthlyLimit, Thresholds: [50, 50] } }),
    },
    'list-usage-limits': {
      200: async () => {
        await put('listed');
        return send('list-usage-limits')({});
      },
    },
    'get-usage-limit': {
      200: async () => {
        await put('read');
        return send('get-usage-limit', limit('read'))({});
      },
      400: () => send('get-usage-limit', limit('a.b'))({}),
      404: () => send('get-usage-limit', limit('none'))({}),
    },
    'delete-usage-limit': {
      204: async () => {
        await put('deleted');
        return send('delete-usage-limit', limit('deleted'))({});
      },
      400: () => send('delete-usage-limit', limit('a.b'))({}),
      404: () => send('delete-usage-limit', limit('none'))({}),
    },
    'get-usage-limit-status': {
      200: async () => {
        await put('checked');
        await send('record-usage')({ body: { Meter: 'api-calls', Usage: 600.5 } });
        return send('get-usage-limit-status', limit('checked'))({});
      },
      400: () => send('get-usage-limit-status', limit('a.b'))({}),
      404: () => send('get-usage-limit-status', limit('none'))({}),
    },
    'put-usage-webhook': {
      200: () => send('put-usage-webhook')({ body: { Url: 'https://billing.example.com/hooks/usage' } }),
      400: () => send('put-usage-webhook')({ rawBody: '{"Url":', headers: json }),
      413: () => send('put-usage-webhook')({ rawBody: TOO_LARGE, headers: json }),
      415: () => send('put-usage-webhook')({ rawBody: '{"Url":"https://billing.example.com/"}', headers: PLAIN_TEXT }),
      422: () => send('put-usage-webhook')({ body: { Url: 'https://10.0.0.1/hooks' } }),
      409: async () => {
        const { operatorId, key } = await createTestOperator();
        return contendedRegistration(webhookKeys.usageEndpoint(operatorId).PK, (url) =>
          send('put-usage-webhook')({ key, body: { Url: url } }),
        );
      },
    },
    'get-usage-webhook': {
      200: async () => {
        await send('put-usage-webhook')({ body: { Url: 'https://billing.example.com/hooks/usage' } });
        return send('get-usage-webhook')({});
      },
      404: async () => send('get-usage-webhook')({ key: (await createTestOperator()).key }),
    },
    'delete-usage-webhook': {
      204: async () => {
        const key = (await createTestOperator()).key;
        await send('put-usage-webhook')({ key, body: { Url: 'https://billing.example.com/hooks/usage' } });
        return send('delete-usage-webhook')({ key });
      },
      404: async () => send('delete-usage-webhook')({ key: (await createTestOperator()).key }),
    },
  };
}
