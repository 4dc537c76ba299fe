import { Agent, request } from 'node:http';

/**
 * The load generator's HTTP client: plain node:http with a keep-alive agent
 * of one socket per concurrent call, the same transport the AWS SDK uses for
 * the bare calls, so neither side pays for connection set-up or a heavier client.
 */
export function keepAliveGetter(baseUrl: string, apiKey: string, sockets: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const { hostname, port } = new URL(baseUrl);
  const headers = { Authorization: `Bearer ${apiKey}` };

  const get = (path: string) =>
    new Promise<string>((resolve, reject) => {
      const outgoing = request({ agent, hostname, port, path, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (response.statusCode === 200) resolve(body);
          else reject(new Error(`GET ${path} answered ${response.statusCode}: ${body.slice(0, 500)}`));
        });
      });
      outgoing.on('error', reject);
      outgoing.end();
    });

  return { get, close: () => agent.destroy() };
}
