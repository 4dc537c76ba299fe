import type { APIGatewayProxyEvent, Context, EventBridgeEvent, DynamoDBStreamEvent } from 'aws-lambda';
import { handler as expireHolds } from '../../functions/bookings/expire-holds';
import { handler as sendWebhooks } from '../../functions/webhooks/send-webhooks';
import { handler as recordPlatformEvent } from '../../functions/events/record-platform-event';
import { startLocalHost, type LocalHost } from '../../lib/local/host';
import { httpHandler } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';
import { testCatalog, tomorrow } from '../support/catalog';
import { createTestOperator, httpClient, type HttpClient, type TestOperator } from '../support/fixtures';
import { captureOutput, type CapturedOutput } from '../support/logs';

/**
 * What the functions write while serving real requests on the local host:
 * one structured line per request, EMF documents for the business events,
 * and never a secret, at DEBUG level too.
 */
const BOOKING = '/api/v2/ota/marketplace/booking';
const USAGE = '/api/v2/usage/meters';
const date = tomorrow();

let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;
let output: CapturedOutput;
const environment = { ...process.env };

beforeAll(async () => {
  Object.assign(process.env, { POWERTOOLS_METRICS_DISABLED: 'false' });
  // Captured from the first call on: everything this file's code writes is read by its tests, never printed.
  output = captureOutput('DEBUG');
  operator = await createTestOperator(testCatalog({ start: date, days: 1, capacity: 3 }), { stem: 'observed' });
  // One authorizer call per key for the whole file, so its counts are exact.
  host = await startLocalHost({ authorizerCacheTtlSeconds: 300 });
  request = httpClient(host);
});

afterAll(async () => {
  await host.close();
  process.env = environment;
  output.restore();
});

const booking = (participants: number) => ({
  ActivityID: 's_walk1',
  Date: date,
  Time: '09:00',
  Participants: participants,
  Customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: '+351912345678' },
});

const requestLines = () => output.lines().filter((line) => line.message === 'Request');
const lineOf = (requestId: string | null) => requestLines().find((line) => line.requestId === requestId);

/** The counts of each business metric and outcome in the EMF documents written for one operator. */
function emittedCounts(operatorId: string | undefined): Record<string, number> {
  const counts: Record<string, number> = {};
  const businessEvents = output.lines().filter((line) => line._aws && line.outcome !== undefined && line.operatorId === operatorId);
  for (const document of businessEvents) {
    const [directive] = document._aws.CloudWatchMetrics;
    expect(directive.Namespace).toBe('OtaUsage');
    expect(directive.Dimensions).toEqual([['service', 'outcome']]);
    expect(document.service).toBe('ota-usage');
    for (const { Name, Unit } of directive.Metrics) {
      expect(Unit).toBe('Count');
      counts[`${Name} ${document.outcome}`] = (counts[`${Name} ${document.outcome}`] ?? 0) + document[Name];
    }
  }
  return counts;
}

describe('observability of real requests', () => {
  const idempotencyKeys = ['order-7f3a9c2e-observed-1', 'usage-1b9d4e77-observed-2'];
  let responses: Record<string, Awaited<ReturnType<HttpClient>>> = {};

  beforeAll(async () => {
    const headers = { 'Idempotency-Key': idempotencyKeys[0] };
    const created = await request('POST', BOOKING, { key: operator.key, body: booking(2), headers });
    responses = {
      created,
      replayed: await request('POST', BOOKING, { key: operator.key, body: booking(2), headers }),
      refused: await request('POST', BOOKING, { key: operator.key, body: booking(2) }),
      cancelled: await request('POST', `${BOOKING}/${created.json.data.BookingReference}/cancel`, { key: operator.key }),
      recorded: await request('POST', USAGE, {
        key: operator.key,
        body: { Meter: 'api-calls', Usage: 2.5 },
        headers: { 'Idempotency-Key': idempotencyKeys[1] },
      }),
      usageReplayed: await request('POST', USAGE, {
        key: operator.key,
        body: { Meter: 'api-calls', Usage: 2.5 },
        headers: { 'Idempotency-Key': idempotencyKeys[1] },
      }),
      invalid: await request('POST', USAGE, { key: operator.key, body: { Meter: 'api-calls', Usage: -1 } }),
      unknownKey: await request('GET', '/api/v2/ota/marketplace/products', { key: `${operator.key}x` }),
    };
  });

  it('answered as the API does (the requests this file observes)', () => {
    expect(Object.fromEntries(Object.entries(responses).map(([name, response]) => [name, response.status]))).toEqual({
      created: 201,
      replayed: 201,
      refused: 409,
      cancelled: 200,
      recorded: 201,
      usageReplayed: 201,
      invalid: 422,
      unknownKey: 401,
    });
  });

  it('writes one INFO line per request with route, method, status, latency, operator, key, request ID and cold start', () => {
    const lines = requestLines().filter((line) => line.operatorId === operator.operatorId);
    expect(lines).toHaveLength(7);
    for (const line of lines) {
      expect(line).toMatchObject({
        level: 'INFO',
        service: 'ota-usage',
        route: expect.stringMatching(/^(create-booking|cancel-booking|record-usage)$/),
        method: 'POST',
        status: expect.any(Number),
        latencyMs: expect.any(Number),
        keyId: expect.stringMatching(/^key_/),
        requestId: expect.any(String),
        functionRequestId: expect.any(String),
        coldStart: expect.any(Boolean),
      });
    }
    expect(lines.map((line) => `${line.route} ${line.status}`)).toEqual([
      'create-booking 201',
      'create-booking 201',
      'create-booking 409',
      'cancel-booking 200',
      'record-usage 201',
      'record-usage 201',
      'record-usage 422',
    ]);
    expect(lines.filter((line) => line.route === 'create-booking').map((line) => line.coldStart)).toEqual([true, false, false]);
  });

  it('names the problem type of every refused request', () => {
    const problems = requestLines()
      .filter((line) => line.operatorId === operator.operatorId && line.status >= 400)
      .map((line) => line.problemType);
    expect(problems).toEqual([responses.refused.json.type, responses.invalid.json.type]);
    expect(problems).toEqual(['/problems/insufficient-capacity', '/problems/validation']);
  });

  it('counts the business events as EMF metrics with the operator as a property', () => {
    expect(emittedCounts(operator.operatorId)).toEqual({
      'Bookings created': 1,
      'Bookings replayed': 1,
      'Bookings refused-capacity': 1,
      'Bookings cancelled': 1,
      'UsageEntries recorded': 1,
      'UsageEntries replayed': 1,
      'Authorizations allowed': 1,
    });
    expect(emittedCounts(undefined)).toMatchObject({ 'Authorizations denied': expect.any(Number) });
  });

  it('writes on each request line the DynamoDB calls it made: how many, how long, the slowest, and each', () => {
    const lines = requestLines().filter((line) => line.operatorId === operator.operatorId);
    const created = lines.find((line) => line.route === 'create-booking' && line.status === 201)!;
    expect(created).toMatchObject({
      dependencyCalls: expect.any(Number),
      dependencyMs: expect.any(Number),
      slowestCall: expect.stringMatching(/^DynamoDB\.(GetItem|TransactWriteItems)$/),
      slowestCallMs: expect.any(Number),
    });
    // The Idempotency-Key's record, the product, then the booking's transaction.
    expect(created.calls.map((call: string) => call.split(' ')[0])).toEqual([
      'DynamoDB.GetItem',
      'DynamoDB.GetItem',
      'DynamoDB.TransactWriteItems',
    ]);
    expect(created.dependencyMs).toBeLessThanOrEqual(created.latencyMs);
    // A refused request made no call it did not need: the 422 was answered before any.
    expect(lines.find((line) => line.route === 'record-usage' && line.status === 422)).toMatchObject({ dependencyCalls: 0 });
  });

  it('publishes the latency of every dependency call as a metric, by dependency and operation', () => {
    const documents = output.lines().filter((line) => line._aws?.CloudWatchMetrics?.[0]?.Metrics?.[0]?.Name === 'DependencyLatency');
    expect(documents.length).toBeGreaterThanOrEqual(7);
    for (const document of documents) {
      expect(document._aws.CloudWatchMetrics[0]).toMatchObject({
        Namespace: 'OtaUsage',
        Dimensions: [['service', 'dependency', 'operation']],
        Metrics: [{ Name: 'DependencyLatency', Unit: 'Milliseconds' }],
      });
      expect(document).toMatchObject({ service: 'ota-usage', dependency: 'DynamoDB', DependencyLatency: expect.any(Number) });
    }
    // The requests' reads and transactions; the PutItems that made this file's operator and catalogue ran outside any invocation, and are not metrics.
    const operations = new Set(documents.map((document) => document.operation));
    expect([...operations]).toEqual(expect.arrayContaining(['GetItem', 'TransactWriteItems']));
    expect(operations.has('PutItem')).toBe(false);
  });

  it('writes one line per authorizer call, as the routes do: outcome, key, cold start, latency and its calls', () => {
    const authorizations = output.lines().filter((line) => line.message === 'Authorization');
    expect(authorizations.find((line) => line.operatorId === operator.operatorId)).toMatchObject({
      level: 'INFO',
      outcome: 'allowed',
      keyId: expect.stringMatching(/^key_/),
      coldStart: expect.any(Boolean),
      functionRequestId: expect.any(String),
      latencyMs: expect.any(Number),
      slowestCall: 'DynamoDB.GetItem',
    });
    // The unknown key: denied, at INFO (a refusal is an answer, not a failure), without the secret.
    expect(authorizations.find((line) => line.outcome === 'denied')).toMatchObject({ level: 'INFO', reason: 'unknown or revoked key' });
  });

  it('logs at DEBUG too, and never a secret, an Authorization header or an Idempotency-Key', () => {
    expect(output.lines().filter((line) => line.level === 'DEBUG' && line.message === 'Request received').length).toBeGreaterThanOrEqual(7);
    const everything = output.text();
    expect(everything).not.toContain(operator.key);
    expect(everything).not.toMatch(/ak_[A-Za-z0-9_-]{8}/);
    // The header by name, as any casing of a JSON key; the scheme with whatever follows it.
    expect(everything).not.toMatch(/"authorization"\s*:/i);
    expect(everything).not.toMatch(/bearer\s/i);
    for (const key of idempotencyKeys) expect(everything).not.toContain(key);
  });
});

describe('observability of failures', () => {
  it('logs a 5xx at ERROR with the error and its stack, and answers without them', async () => {
    const failing = httpHandler(
      { route: 'list-products', fields: { path: [], query: [], deepObjects: [] } },
      async () => {
        throw new Error('The table is on fire');
      },
      problemFace,
    );
    const event = {
      httpMethod: 'GET',
      resource: '/api/v2/ota/marketplace/products',
      path: '/api/v2/ota/marketplace/products',
      headers: {},
      requestContext: { requestId: 'req-5xx', authorizer: { operatorId: 'op-x', keyId: 'key_x', scopes: 'ota', timeZone: 'UTC' } },
    } as unknown as APIGatewayProxyEvent;
    const response = await failing(event, { awsRequestId: 'fn-5xx' } as Context);
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('fire');
    expect(lineOf('req-5xx')).toMatchObject({
      level: 'ERROR',
      route: 'list-products',
      status: 500,
      problemType: '/problems/internal',
      functionRequestId: 'fn-5xx',
      error: { name: 'Error', message: 'The table is on fire', stack: expect.stringContaining('observability.test.ts') },
    });
  });

  it('counts platform events recorded and rejected, each with one line', async () => {
    const event: EventBridgeEvent<string, unknown> = {
      version: '0',
      id: 'c1d2e3f4-0000-4000-8000-0000000000aa',
      'detail-type': 'Order Completed',
      source: 'platform.orders',
      account: '000000000000',
      time: `${date}T10:00:00Z`,
      region: 'local',
      resources: [],
      detail: { OperatorID: operator.operatorId, BasketID: 'b_observed' },
    };
    await recordPlatformEvent(event, { awsRequestId: 'fn-event' } as Context);
    await recordPlatformEvent(event, { awsRequestId: 'fn-event-again' } as Context);
    const malformed = { ...event, id: 'c1d2e3f4-0000-4000-8000-0000000000ab', detail: { OperatorID: operator.operatorId } };
    await expect(recordPlatformEvent(malformed, { awsRequestId: 'fn-bad' } as Context)).rejects.toThrow(/BasketID/);

    const lines = output.lines().filter((line) => line.eventId?.startsWith('c1d2e3f4'));
    expect(lines.map((line) => [line.level, line.message, line.outcome ?? line.retryable])).toEqual([
      ['INFO', 'Platform event', 'recorded'],
      ['INFO', 'Platform event', 'replayed'],
      ['ERROR', 'Platform event not recorded', false],
    ]);
    const counts = emittedCounts(operator.operatorId);
    expect(counts['PlatformEvents recorded']).toBe(1);
    expect(counts['PlatformEvents rejected']).toBe(1);
    // The first delivery recorded a usage entry; the redelivery was a replay of it.
    expect(counts['UsageEntries recorded']).toBe(2);
    expect(counts['UsageEntries replayed']).toBe(2);
  });
});

describe('one line per invocation, whatever the kind of function', () => {
  it('the webhook sender: its batch and the records it could not work on, with cold start and latency', async () => {
    const unreadable = { eventName: 'INSERT', dynamodb: { SequenceNumber: '100', NewImage: { Entity: { S: 'WebhookDelivery' } } } };
    const event = { Records: [unreadable] } as DynamoDBStreamEvent;
    const result = await sendWebhooks(event, { awsRequestId: 'fn-stream' } as Context);
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: '100' }]);
    expect(output.lines().find((line) => line.sequenceNumber === '100')).toMatchObject({
      level: 'ERROR',
      message: 'Webhook delivery attempt failed',
      error: { message: 'The stream record is not a queued webhook delivery', stack: expect.any(String) },
    });
    expect(output.lines().find((line) => line.functionRequestId === 'fn-stream')).toMatchObject({
      level: 'INFO',
      message: 'Webhook deliveries',
      records: 1,
      failedRecords: 1,
      coldStart: true,
      latencyMs: expect.any(Number),
      dependencyCalls: 0,
    });
  });

  it('a sweep: what it did, with its calls', async () => {
    await expireHolds(undefined, { awsRequestId: 'fn-sweep' } as Context);
    expect(output.lines().find((line) => line.functionRequestId === 'fn-sweep')).toMatchObject({
      level: 'INFO',
      message: 'Scheduled run',
      schedule: 'expire-holds',
      expired: expect.any(Number),
      coldStart: true,
      slowestCall: 'DynamoDB.Query',
    });
  });
});
