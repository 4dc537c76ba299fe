import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';

/**
 * A partner's webhook receiver on this machine: records every request it
 * gets, and answers as the test tells it: at once with a status, or not until
 * released (a slow receiver), or with a status after a while (a busy one). It can be stopped and started again on the same
 * port (a receiver that is down, then back).
 */
export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  url(path: string): string;
  readonly received: ReceivedRequest[];
  /** How the next requests are answered: a status, 'hold' to keep them waiting until `release`, or a status after `afterMs`. */
  answer(mode: AnswerMode): void;
  /** Answers every held request with `status`. */
  release(status?: number): void;
  /** Resolves when the receiver has got `count` requests in all. */
  waitFor(count: number): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
}

type AnswerMode = number | 'hold' | { status: number; afterMs: number };

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const held: ServerResponse[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let mode: AnswerMode = 204;
  let server: Server | undefined;
  let port = 0;

  const listen = async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        for (const waiter of waiters.filter((candidate) => received.length >= candidate.count)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
        if (mode === 'hold') held.push(response);
        else if (typeof mode === 'number') response.writeHead(mode).end();
        else {
          const { status, afterMs } = mode;
          setTimeout(() => response.writeHead(status).end(), afterMs);
        }
      });
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server!.address() as { port: number }).port;
  };
  await listen();

  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    answer: (next) => {
      mode = next;
    },
    release: (status = 204) => {
      for (const response of held.splice(0)) response.writeHead(status).end();
    },
    waitFor: (count) => (received.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
    stop: async () => {
      for (const response of held.splice(0)) response.destroy();
      await new Promise<void>((resolve) => {
        server!.closeAllConnections();
        server!.close(() => resolve());
      });
    },
    start: listen,
  };
}
