import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { systemClock, type Clock } from '../../shared/core/clock';
import { config, configure } from '../../shared/core/config';
import { localGateway, type LocalGateway, type LocalGatewayOptions } from './api-gateway';
import { serveDashboard, servesDashboard } from './dashboard';
import { LOCAL_HTTP_HOST } from './defaults';
import { docsServer, servesDocs } from './docs';
import type { LocalAwsStandIn } from './aws-stand-in';
import { createLocalEventBus, type LocalEventBus, type LocalEventBusOptions } from './event-bus';
import { acceptedHosts, failSafely, guardServerEdge, misdirectedHost, missingHost, sendProblem } from './http-edge';
import { createLocalKms, LOCAL_SIGNING_KEY_ARN, type LocalKmsOptions } from './kms';
import { createLocalQueue, type LocalQueue, type LocalQueueOptions } from './queue';
import { finishReading } from './request-body';
import { createLocalScheduler, type LocalScheduler, type LocalSchedulerOptions } from './scheduler';
import { startLocalTableStream, type LocalTableStream, type LocalTableStreamOptions } from './table-stream';

/**
 * The local host: one port that plays API Gateway (api-gateway.ts),
 * EventBridge's PutEvents (event-bus.ts), the announcement queue's
 * SendMessage (queue.ts) and KMS's Encrypt and Decrypt (kms.ts), and
 * serves the dashboard and the API reference; beside it the table's stream
 * (table-stream.ts) and the Scheduler
 * (scheduler.ts). Once listening, it tells the configuration where its
 * stand-ins answer, as the stack tells a function by its environment.
 * `npm start`, the tests and the bench start it.
 */

function send(response: ServerResponse, result: APIGatewayProxyResult): void {
  const headers: Record<string, string | string[]> = { ...(result.headers as Record<string, string>) };
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name] = values.map(String);
  response.writeHead(result.statusCode, headers);
  response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

export interface LocalHostOptions extends LocalGatewayOptions {
  port?: number;
  host?: string;
  /** The host's "now": authorizer cache expiry, the token buckets (rate-limit.ts), request times and the functions' remaining time. */
  clock?: Clock;
  eventBus?: LocalEventBusOptions;
  scheduler?: LocalSchedulerOptions;
  tableStream?: LocalTableStreamOptions;
  queue?: LocalQueueOptions;
  /** Where the KMS stand-in keeps its key (npm start: beside the table's data); without it, a key for this run. */
  kms?: LocalKmsOptions;
}

export interface LocalHost {
  url: string;
  server: Server;
  /** EventBridge's PutEvents on the same port (see event-bus.ts). */
  eventBus: LocalEventBus;
  /** How many authorizer results are cached now. */
  authorizerCacheSize(): number;
  /** The table's stream, read for the webhook sender as its event source mapping would (see table-stream.ts). */
  tableStream: LocalTableStream;
  /** The scheduled functions (see scheduler.ts). */
  scheduler: LocalScheduler;
  /** The announcement queue: trailing flushes handed over when their delay has passed (see queue.ts). */
  queue: LocalQueue;
  close(): Promise<void>;
}

/**
 * Each request to the host's one port goes to the event bus, the dashboard,
 * the API reference or the gateway, once its Host names this host.
 */
async function serveRequest(
  {
    gateway,
    standIns,
    serveDocs,
    accepts,
  }: {
    gateway: LocalGateway;
    standIns: Pick<LocalAwsStandIn<unknown>, 'accepts' | 'serve'>[];
    serveDocs: ReturnType<typeof docsServer>;
    accepts: (host: string) => boolean;
  },
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const refused = missingHost(request) ?? misdirectedHost(request, accepts);
  // The stand-ins read their own bodies, and read what is left before they refuse (request-body.ts).
  const standIn = refused ? undefined : standIns.find((candidate) => candidate.accepts(request));
  if (standIn) return standIn.serve(request, response);
  const answer = refused
    ? () => sendProblem(response, refused, { Connection: 'close' })
    : servesDashboard(request)
      ? () => serveDashboard(request, response)
      : servesDocs(request)
        ? () => serveDocs(request, response)
        : await gateway.handle(request).then((result) => () => send(response, result));
  // An answer decided before the body was read (no route, a refused path, a body over the limit) waits for the rest of it.
  await finishReading(request, response);
  await answer();
}

/** Listens on `host` and `port` (0 picks a free one), and resolves with the host's URL. */
async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as { port: number };
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
}

export async function startLocalHost(options: LocalHostOptions = {}): Promise<LocalHost> {
  const clock = options.clock ?? systemClock;
  const gateway = localGateway(options, clock);
  const eventBus = createLocalEventBus({ ...options.eventBus, clock });
  const queue = createLocalQueue(options.queue);
  const kms = createLocalKms(options.kms);
  const serveDocs = docsServer(clock);
  const bindAddress = options.host ?? LOCAL_HTTP_HOST;
  // Set once the port is known; no request arrives before.
  let accepts: (host: string) => boolean = () => false;

  // requireHostHeader is off so that the missing Host is answered by `missingHost`, as a problem.
  const server = createServer({ requireHostHeader: false }, (request, response) => {
    serveRequest({ gateway, standIns: [eventBus, queue, kms], serveDocs, accepts }, request, response).catch((error) =>
      failSafely(request, response, error, 'Local host'),
    );
  });
  guardServerEdge(server);
  server.keepAliveTimeout = 30_000;
  const url = await listen(server, options.port ?? 0, bindAddress);
  accepts = acceptedHosts(bindAddress, (server.address() as AddressInfo).port);
  configure({ ...config(), localAwsEndpoint: url, announcementQueueUrl: queue.urlOn(url), signingSecretsKey: LOCAL_SIGNING_KEY_ARN });
  const scheduler = createLocalScheduler(options.scheduler);
  const tableStream = startLocalTableStream(options.tableStream);
  return {
    url,
    server,
    eventBus,
    authorizerCacheSize: gateway.authorizerCacheSize,
    tableStream,
    scheduler,
    queue,
    close: async () => {
      await scheduler.stop();
      // Events already accepted and stream records already read are handled before the host goes away, as AWS would.
      await eventBus.idle();
      await tableStream.stop();
      await queue.stop();
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
}
