import { Agent, request, type OutgoingHttpHeaders } from 'node:http';

/**
 * The load generator's HTTP client: plain node:http with a keep-alive agent
 * of one socket per concurrent call, the same transport the AWS SDK uses for
 * the bare calls, so neither side pays for connection set-up or a heavier client.
 */
export function keepAliveClient(baseUrl: string, apiKey: string, sockets: number) {
  // Sockets idle while the bare side runs, for longer than the host keeps them (30 s) when a scenario is slow: dropping
  // them sooner here means a call never goes out on a socket the host is closing (a "socket hang up").
  const agent = new Agent({ keepAlive: true, maxSockets: sockets, timeout: 10_000 });
  const { hostname, port } = new URL(baseUrl);
  const authorization = { Authorization: `Bearer ${apiKey}` };

  /** Resolves to the body when the answer has the expected status; anything else rejects, which stops the bench. */
  const send = (method: string, path: string, expected: number, payload?: string, extraHeaders: OutgoingHttpHeaders = {}) =>
    new Promise<string>((resolve, reject) => {
      const headers: OutgoingHttpHeaders = { ...authorization, ...extraHeaders };
      if (payload !== undefined)
        Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) });
      const outgoing = request({ agent, hostname, port, method, path, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (response.statusCode === expected) resolve(body);
          else reject(new Error(`${method} ${path} answered ${response.statusCode}, not ${expected}: ${body.slice(0, 500)}`));
        });
      });
      outgoing.on('error', reject);
      outgoing.end(payload);
    });

  return {
    get: (path: string, headers?: OutgoingHttpHeaders) => send('GET', path, 200, undefined, headers),
    /** A JSON POST that must answer 201 Created. */
    post: (path: string, body: unknown, headers?: OutgoingHttpHeaders) => send('POST', path, 201, JSON.stringify(body), headers),
    /** A JSON POST of an action on a resource (or any OCTo POST), which must answer 200. */
    postAction: (path: string, body: unknown, headers?: OutgoingHttpHeaders) => send('POST', path, 200, JSON.stringify(body), headers),
    /** A JSON PUT that must answer 200 (a resource put whole, such as a usage limit). */
    put: (path: string, body: unknown) => send('PUT', path, 200, JSON.stringify(body)),
    /** A DELETE that must answer 204. */
    delete: (path: string) => send('DELETE', path, 204),
    close: () => agent.destroy(),
  };
}
