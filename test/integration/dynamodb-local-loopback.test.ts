import { rawExchange, rawRequest, sigV4Authorization } from '../../scripts/fuzz/raw-http';
import { commandLineOf, listeningSocketsOf, processListeningOn } from '../support/listening-sockets';

/**
 * DynamoDB Local holds the whole table (customers, webhook secrets, key
 * hashes) and checks no credentials, so it must be reachable from this
 * machine only. The run's DynamoDB Local is started by `startDynamoDbLocal`,
 * as `npm start`'s is: its Java process's own listening sockets are read from
 * /proc (what `ss -ltnp` shows), not probed from outside.
 */

const endpoint = new URL(process.env.DYNAMODB_ENDPOINT as string);
const port = Number(endpoint.port);

const LOOPBACK = new Set(['127.0.0.1', '::ffff:127.0.0.1', '::1']);

describe('DynamoDB Local', () => {
  it('listens on the loopback interface only', () => {
    const pid = processListeningOn(port);
    expect(commandLineOf(pid)).toMatch(/java .*DynamoDBLocal/);
    const sockets = listeningSocketsOf(pid);
    expect(sockets.map((socket) => socket.port)).toContain(port);
    expect(sockets.filter((socket) => !LOOPBACK.has(socket.address))).toEqual([]);
  });

  it('answers only requests that name it by a loopback name, so a DNS-rebinding page cannot reach it', async () => {
    const listTables = (host: string) =>
      rawExchange(
        endpoint.href,
        rawRequest(
          'POST',
          '/',
          [
            ['Host', host],
            ['Content-Type', 'application/x-amz-json-1.0'],
            ['X-Amz-Target', 'DynamoDB_20120810.ListTables'],
            ['Authorization', sigV4Authorization('local', 'a'.repeat(64), 'dynamodb')],
            ['Connection', 'close'],
          ],
          '{}',
        ),
      );
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const [answer] = await listTables(host);
      expect({ host, status: answer.status, tables: Array.isArray(answer.json?.TableNames) }).toEqual({ host, status: 200, tables: true });
    }
    for (const host of [`attacker.example:${port}`, `127.0.0.1.attacker.example:${port}`, `192.168.1.20:${port}`]) {
      const [answer] = await listTables(host);
      expect({ host, status: answer.status, leaked: /TableNames/.test(answer.body) }).toEqual({ host, status: 404, leaked: false });
    }
  });
});
