import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { LocalHost } from '../../lib/local/host';
import { addDays } from '../../shared/core/calendar';
import { createTestOperator, httpClient, startTestHost } from '../support/fixtures';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

let host: LocalHost;
beforeAll(async () => {
  host = await startTestHost();
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterAll(async () => {
  jest.restoreAllMocks();
  await host.close();
});

const admin = (...args: string[]) => run(TSX, ['bin/admin.ts', ...args], { cwd: ROOT, env: { ...process.env } });

describe('admin emit-event', () => {
  it('sends a sample of every built-in event through the local bus, each counted once', async () => {
    const operator = await createTestOperator(undefined, { stem: 'emit' });
    const { stdout } = await admin('emit-event', '--operator', operator.operatorId, '--endpoint', host.url);
    expect(stdout).toMatch(
      /Sent platform\.orders 'Order Completed' \{"OperatorID":"[^"]+","BasketID":"sample-[0-9a-f]+"\} as event [0-9a-f-]{36}/,
    );
    expect(stdout.match(/^Sent /gm)).toHaveLength(3);

    await host.eventBus.idle();
    // The events carry the time they were sent; yesterday is included in case that was just before midnight.
    const today = new Date().toISOString().slice(0, 10);
    const { json } = await httpClient(host)('GET', `/api/v2/usage/meters?from=${addDays(today, -1)}&to=${today}`, { key: operator.key });
    expect(json.data.Meters).toEqual([
      { Meter: 'order-completed', TotalUsage: 1, EventCount: 1 },
      { Meter: 'waitlist-notified', TotalUsage: 1, EventCount: 1 },
      { Meter: 'workflow-email-sent', TotalUsage: 1, EventCount: 1 },
    ]);
  });

  it('sends one kind when asked, and refuses a meter that is not built in', async () => {
    const operator = await createTestOperator(undefined, { stem: 'emit-one' });
    const { stdout } = await admin(
      'emit-event',
      '--operator',
      operator.operatorId,
      '--event',
      'workflow-email-sent',
      '--endpoint',
      host.url,
    );
    expect(stdout.match(/^Sent /gm)).toEqual(['Sent ']);
    await expect(admin('emit-event', '--operator', operator.operatorId, '--event', 'nope', '--endpoint', host.url)).rejects.toMatchObject({
      stderr: expect.stringMatching(/'nope' is not a built-in meter/),
    });
  });
});
