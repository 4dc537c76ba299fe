import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { configure } from '../../shared/core/config';
import { countBusinessEvent } from '../../shared/core/metrics';
import { observed } from '../../shared/core/observability';
import { requestLine } from '../../shared/http/observability';

/**
 * Child process of the observability bench (observability.ts): times one
 * middy handler without and one with the observability middlewares, both
 * around the same trivial answer, in alternating rounds. Its stdout is the
 * log pipe (the parent drains it, as Lambda's log agent does); the figures
 * go to stderr as one JSON line.
 */
const [calls, rounds] = process.argv.slice(2).map(Number);
configure({ tableName: 'ota-usage-bench' });

const answer: APIGatewayProxyResult = { statusCode: 201, headers: { 'Content-Type': 'application/json' }, body: '{"data":{}}' };
const event = {
  resource: '/api/v2/ota/marketplace/booking',
  path: '/api/v2/ota/marketplace/booking',
  httpMethod: 'POST',
  headers: { 'content-type': 'application/json', 'user-agent': 'bench' },
  queryStringParameters: null,
  pathParameters: null,
  body: null,
  requestContext: { requestId: 'bench', authorizer: { operatorId: 'bench-operator', keyId: 'key_bench', scopes: 'ota', timeZone: 'UTC' } },
} as unknown as APIGatewayProxyEvent;
const context = { awsRequestId: 'bench' } as Context;

const bare = middy<APIGatewayProxyEvent, APIGatewayProxyResult>().handler(async () => answer);
// The observed side also counts one business event, as a booking does: its EMF document is part of the cost.
const withObservability = observed(
  requestLine('create-booking'),
  middy<APIGatewayProxyEvent, APIGatewayProxyResult>().handler(async () => {
    countBusinessEvent('Bookings', 'created', 'bench-operator');
    return answer;
  }),
);

async function time(
  handler: (event: APIGatewayProxyEvent, context: Context) => Promise<unknown>,
  count: number,
  into: number[],
): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const start = process.hrtime.bigint();
    await handler(event, context);
    into.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
}

async function main(): Promise<void> {
  const samples = { bare: [] as number[], observed: [] as number[] };
  await time(bare, 200, []);
  await time(withObservability, 200, []);
  for (let round = 0; round < rounds; round += 1) {
    await time(bare, calls / rounds, samples.bare);
    await time(withObservability, calls / rounds, samples.observed);
  }
  process.stderr.write(`${JSON.stringify(samples)}\n`);
}

void main();
