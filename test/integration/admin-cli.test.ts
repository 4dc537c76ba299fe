import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { queryTimeslots } from '../../shared/catalog/repository';
import { documentClient, tableName } from '../../shared/db/client';
import * as keys from '../../shared/db/keys';
import { createOperator } from '../../shared/accounts/operators';
import { recordUsage } from '../../shared/usage/record-usage';
import { summarizeUsage } from '../../shared/usage/summary';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalHost } from '../../lib/local/host';
import { testCatalog, tomorrow } from '../support/catalog';
import { createTestOperator, freePort, httpClient, startTestHost, uniqueOperatorId } from '../support/fixtures';
import { admin, adminIn, asBesideNpmStart } from '../support/admin-cli';
import { recordOperatorBooking } from '../../shared/booking/operator-bookings';

let host: LocalHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host.close());

describe('admin CLI', () => {
  const operatorId = uniqueOperatorId('cli');
  const dir = mkdtempSync(path.join(tmpdir(), 'catalog-'));
  const start = tomorrow();

  it('creates an operator, imports a catalogue twice without change, and issues a working key', async () => {
    expect(await admin('create-operator', '--id', operatorId, '--name', 'CLI Tours', '--time-zone', 'Europe/Lisbon')).toMatchObject({
      code: 0,
    });
    expect((await admin('create-operator', '--id', operatorId, '--name', 'CLI Tours', '--time-zone', 'Europe/Lisbon')).out).toMatch(
      /already exists/,
    );

    const file = path.join(dir, 'catalog.json');
    writeFileSync(file, JSON.stringify(testCatalog({ start, days: 3, capacity: 10 })));
    const first = await admin('import-catalog', '--operator', operatorId, '--file', file);
    expect(first).toEqual({ code: 0, out: expect.stringMatching(/Imported 2 products and 7 timeslots/) });

    // Places booked since the first import survive the second.
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.timeslot(operatorId, 's_walk1', start, '09:00'),
        UpdateExpression: 'SET Booked = :booked, Vacancies = :vacancies',
        ExpressionAttributeValues: { ':booked': 4, ':vacancies': 6 },
      }),
    );
    // The second import goes by the command's other name, import-catalogue.
    expect(await admin('import-catalogue', '--operator', operatorId, '--file', file)).toEqual({
      code: 0,
      out: expect.stringMatching(/Imported 2 products and 7 timeslots/),
    });
    const slots = await queryTimeslots(operatorId, 's_walk1', start, start);
    expect(slots).toEqual([
      { Date: start, Time: '09:00', Capacity: 10, Booked: 4, Vacancies: 6 },
      { Date: start, Time: '14:00', Capacity: 10, Booked: 0, Vacancies: 10 },
    ]);

    const created = await admin('create-key', '--operator', operatorId, '--scopes', 'ota');
    const secret = /ak_[A-Za-z0-9_-]+/.exec(created.out)?.[0];
    expect(secret).toBeDefined();
    const response = await httpClient(host)('GET', '/api/v2/ota/marketplace/products', { key: secret });
    expect(response.json.data.map((p: { ActivityID: string }) => p.ActivityID)).toEqual(['s_walk1']);

    const keyId = /key_[A-Za-z0-9]+/.exec(created.out)?.[0] as string;
    expect((await admin('list-keys', '--operator', operatorId)).out).toMatch(new RegExp(`${keyId}\\s+ACTIVE\\s+ota`));
    expect((await admin('revoke-key', '--operator', operatorId, '--key', keyId)).code).toBe(0);
    expect((await admin('list-keys', '--operator', operatorId)).out).toMatch(new RegExp(`${keyId}\\s+REVOKED`));
  });

  it('issues keys with the default limits or given ones, changes them, and refuses impossible limits', async () => {
    const standard = await admin('create-key', '--operator', operatorId, '--scopes', 'ota');
    expect(standard.out).toMatch(/limited to 50 requests\/s, burst 100/);
    const limited = await admin('create-key', '--operator', operatorId, '--scopes', 'ota', '--rate', '5', '--burst', '10');
    expect(limited.out).toMatch(/limited to 5 requests\/s, burst 10/);
    const keyId = /key_[A-Za-z0-9]+/.exec(limited.out)?.[0] as string;
    expect((await admin('list-keys', '--operator', operatorId)).out).toMatch(new RegExp(`${keyId}\\s+ACTIVE\\s+ota\\s+5/s burst 10`));

    expect((await admin('set-key-limits', '--operator', operatorId, '--key', keyId, '--rate', '20.5', '--burst', '40')).code).toBe(0);
    expect((await admin('list-keys', '--operator', operatorId)).out).toMatch(new RegExp(`${keyId}\\s+ACTIVE\\s+ota\\s+20.5/s burst 40`));

    expect(await admin('set-key-limits', '--operator', operatorId, '--key', keyId, '--rate', '0', '--burst', '40')).toEqual({
      code: 1,
      out: expect.stringMatching(/'rate' must be a number of requests per second above 0/),
    });
    expect((await admin('create-key', '--operator', operatorId, '--scopes', 'ota', '--rate', '5')).out).toMatch(/Missing --burst/);
    expect((await admin('set-key-limits', '--operator', operatorId, '--key', 'key_nothere', '--rate', '1', '--burst', '1')).out).toMatch(
      /has no key/,
    );
  });

  it('issues keys with the default caps on held places or given ones, changes them alone, and refuses impossible caps', async () => {
    const standard = await admin('create-key', '--operator', operatorId, '--scopes', 'ota');
    expect(standard.out).toMatch(/holding at most 40 places at once on a timeslot and 200 in all/);
    const capped = await admin(
      'create-key',
      '--operator',
      operatorId,
      '--scopes',
      'ota',
      '--max-held-places-per-timeslot',
      '4',
      '--max-held-places',
      '12',
    );
    expect(capped.out).toMatch(/limited to 50 requests\/s, burst 100, holding at most 4 places at once on a timeslot and 12 in all/);
    const keyId = /key_[A-Za-z0-9]+/.exec(capped.out)?.[0] as string;
    expect((await admin('list-keys', '--operator', operatorId)).out).toMatch(
      new RegExp(`${keyId}\\s+ACTIVE\\s+ota\\s+50/s burst 100\\s+holds 4/timeslot 12 in all`),
    );

    const raised = await admin(
      'set-key-limits',
      '--operator',
      operatorId,
      '--key',
      keyId,
      '--max-held-places-per-timeslot',
      '30',
      '--max-held-places',
      '90',
    );
    expect(raised).toEqual({ code: 0, out: expect.stringMatching(/may now hold at most 30 places at once on a timeslot and 90 in all/) });
    // Its rate limits are as they were: only what was given changes.
    expect((await admin('list-keys', '--operator', operatorId)).out).toMatch(
      new RegExp(`${keyId}\\s+ACTIVE\\s+ota\\s+50/s burst 100\\s+holds 30/timeslot 90 in all`),
    );

    expect(
      await admin(
        'set-key-limits',
        '--operator',
        operatorId,
        '--key',
        keyId,
        '--max-held-places-per-timeslot',
        '100',
        '--max-held-places',
        '90',
      ),
    ).toEqual({
      code: 1,
      out: expect.stringMatching(/'max-held-places-per-timeslot' is 100, more than the places the key may hold in all \(90\)/),
    });
    expect((await admin('set-key-limits', '--operator', operatorId, '--key', keyId, '--max-held-places', '0')).out).toMatch(
      /Missing --max-held-places-per-timeslot/,
    );
    expect((await admin('set-key-limits', '--operator', operatorId, '--key', keyId)).out).toMatch(
      /Give --rate and --burst, or --max-held-places-per-timeslot and --max-held-places, or both/,
    );
  });

  it('asks for the API with --aws before it touches anything', async () => {
    const result = await admin('create-key', '--aws', '--table', 'any', '--operator', operatorId, '--scopes', 'ota');
    expect(result).toEqual({ code: 1, out: expect.stringMatching(/With --aws, give --api-id ID/) });
  });

  it('rejects a bad catalogue naming the entry, and writes nothing', async () => {
    const bad = testCatalog({ start });
    bad.Products[0].Schedules![0].Capacity = 0;
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(bad));
    const other = uniqueOperatorId('cli');
    await admin('create-operator', '--id', other, '--name', 'Other', '--time-zone', 'UTC');
    const result = await admin('import-catalog', '--operator', other, '--file', file);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/Entry 'Products\[0\]\.Schedules\[0\]\.Capacity' must be an integer from 1/);
    expect(await queryTimeslots(other, 's_walk1', start, start)).toEqual([]);
  });

  it('refuses a catalogue with a number that would not be read as written, naming the entry, and writes nothing', async () => {
    const file = path.join(dir, 'inexact.json');
    // As text: JSON.stringify cannot write a number a double does not hold.
    writeFileSync(file, JSON.stringify(testCatalog({ start })).replace('"Amount":2000', '"Amount":2000.0000000000000001'));
    const other = uniqueOperatorId('cli');
    await admin('create-operator', '--id', other, '--name', 'Other', '--time-zone', 'UTC');
    // By the command's other name: its entries are named as under import-catalog.
    const result = await admin('import-catalogue', '--operator', other, '--file', file);
    expect(result).toEqual({
      code: 1,
      out: expect.stringContaining(
        "Entry 'Products[0].PricePerParticipant.Amount' must be a number that is read as written (at most 15 significant digits): 2000.0000000000000001 would be read as 2000",
      ),
    });
    expect(await queryTimeslots(other, 's_walk1', start, start)).toEqual([]);
  });

  it("says which of a schedule's starts it left out because the clocks skip them, and refuses a one-off at such a time", async () => {
    const lisbon = uniqueOperatorId('cli');
    await admin('create-operator', '--id', lisbon, '--name', 'Lisbon Nights', '--time-zone', 'Europe/Lisbon');
    const walk = testCatalog({ start: '2027-03-27', days: 3 }).Products[0];
    const file = path.join(dir, 'spring-forward.json');
    writeFileSync(file, JSON.stringify({ Products: [{ ...walk, Schedules: [{ ...walk.Schedules![0], Times: ['01:30', '09:00'] }] }] }));
    const imported = await admin('import-catalog', '--operator', lisbon, '--file', file);
    expect(imported).toEqual({
      code: 0,
      out: expect.stringMatching(
        /^Imported 1 product and 5 timeslots into .*\nSkipped 1 scheduled start\(s\) at a time the clocks skip that day:\n {2}s_walk1 2027-03-28 01:30\n$/,
      ),
    });

    const oneOff = path.join(dir, 'one-off.json');
    writeFileSync(
      oneOff,
      JSON.stringify({ Products: [{ ...walk, Schedules: [], Timeslots: [{ Date: '2027-03-28', Time: '01:30', Capacity: 4 }] }] }),
    );
    const refused = await admin('import-catalog', '--operator', lisbon, '--file', oneOff);
    expect(refused).toEqual({
      code: 1,
      out: expect.stringContaining(
        "Entry 'Products[0].Timeslots[0].Time' is 01:30, a time that does not exist on 2027-03-28 in Europe/Lisbon: the clocks go from 01:00 to 02:00",
      ),
    });
    expect((await queryTimeslots(lisbon, 's_walk1', '2027-03-28', '2027-03-28')).map((slot) => slot.Time)).toEqual(['09:00']);
  });

  it('refuses a ProductID that belongs to another activity of the operator', async () => {
    const clash = testCatalog({ start, days: 1 });
    clash.Products = [{ ...clash.Products[0], ActivityID: 's_walk2', Name: 'Another walk' }];
    const file = path.join(dir, 'clash.json');
    writeFileSync(file, JSON.stringify(clash));
    const result = await admin('import-catalog', '--operator', operatorId, '--file', file);
    expect(result).toEqual({ code: 1, out: expect.stringMatching(/ProductID 501 already belongs to activity s_walk1/) });
  });

  it('voids an entry of a built-in meter, which the API refuses to, once', async () => {
    const tenant = uniqueOperatorId('cli-void');
    await createOperator({ OperatorID: tenant, Name: 'Voids', TimeZone: 'UTC' });
    const day = '2026-06-20';
    const occurredAt = Date.parse(`${day}T10:00:00Z`) / 1000;
    const { entry } = await recordUsage(
      tenant,
      { Meter: 'waitlist-notified', Usage: 1, OccurredAt: occurredAt },
      { builtIn: true, idempotencyKey: 'evt-cli-void' },
    );
    const events = async () => (await summarizeUsage(tenant, { from: day, to: day })).summary.Totals.Events;
    expect(await events()).toBe(1);
    const voided = await admin('void-usage-entry', '--operator', tenant, '--id', String(entry.ID));
    expect(voided).toEqual({
      code: 0,
      out: expect.stringMatching(
        new RegExp(`Voided usage entry ${entry.ID} of meter waitlist-notified \\(Usage 1, at ${occurredAt}\\) at \\d+ in `),
      ),
    });
    expect(await events()).toBe(0);
    const again = await admin('void-usage-entry', '--operator', tenant, '--id', String(entry.ID));
    expect(again.out).toMatch(new RegExp(`Usage entry ${entry.ID} was already voided at \\d+`));
    expect(await events()).toBe(0);
    expect(await admin('void-usage-entry', '--operator', tenant, '--id', '12345')).toEqual({
      code: 1,
      out: expect.stringMatching(/Usage entry 12345 does not exist/),
    });
  });
});

describe("admin CLI: the operator's timeslots", () => {
  it('shows the day, sets a capacity, closes and reopens, adds and cancels timeslots, refusing what the API refuses', async () => {
    const start = tomorrow();
    const { operatorId } = await createTestOperator(testCatalog({ start, days: 2, capacity: 10 }));
    const slot = ['--operator', operatorId, '--activity', 's_walk1', '--date', start];
    const customer = { FirstName: 'Walk', LastName: 'In', Email: 'walk.in@example.com' };
    await recordOperatorBooking(operatorId, {
      Channel: 'pos',
      ActivityID: 's_walk1',
      Date: start,
      Time: '09:00',
      Participants: 3,
      Customer: customer,
    });

    expect(await admin('timeslots', ...slot)).toEqual({
      code: 0,
      out: `s_walk1 ${start} 09:00  AVAILABLE  capacity 10, booked 3, held 0, left 7\ns_walk1 ${start} 14:00  AVAILABLE  capacity 10, booked 0, held 0, left 10\n`,
    });
    expect((await admin('set-capacity', ...slot, '--time', '09:00', '--capacity', '25')).out).toMatch(
      /09:00 {2}AVAILABLE {2}capacity 25, booked 3, held 0, left 22\n$/,
    );
    expect(await admin('set-capacity', ...slot, '--time', '09:00', '--capacity', '2')).toEqual({
      code: 1,
      out: `Error: Field 'Capacity' is 2, below the 3 place(s) already taken (held or booked) on ${start} 09:00; nothing was changed\n`,
    });
    expect(await admin('set-capacity', ...slot, '--time', '09:00', '--capacity', '10001')).toEqual({
      code: 1,
      out: "Error: Field 'Capacity' must be an integer from 1 to 10000\n",
    });
    expect((await admin('close-timeslot', ...slot, '--reason', 'Guide ill')).out).toMatch(
      new RegExp(`09:00  CLOSED     capacity 25, booked 3, held 0, left 22  closed by admin at \\S+: Guide ill\n.*14:00  CLOSED `),
    );
    expect((await admin('reopen-timeslot', ...slot, '--time', '14:00')).out).toMatch(/14:00 {2}AVAILABLE /);
    expect((await admin('add-timeslot', ...slot, '--time', '19:00', '--capacity', '6')).out).toMatch(
      /19:00 {2}AVAILABLE {2}capacity 6, booked 0, held 0, left 6\n$/,
    );
    expect((await admin('add-timeslot', ...slot, '--time', '19:00', '--capacity', '6')).out).toMatch(
      /^Error: Field 'Timeslots\[0\]' is \S+ 19:00, a timeslot activity s_walk1 already has/,
    );
    const cancelled = await admin('cancel-timeslot', ...slot, '--time', '09:00', '--reason', 'Storm');
    expect(cancelled).toEqual({
      code: 0,
      out: expect.stringMatching(/09:00 {2}CLOSED {5}capacity 25, booked 0, held 0, left 25 .*\nCancelled 1 booking\(s\): [A-Z0-9]{10}\n$/),
    });
    expect((await admin('cancel-timeslot', ...slot, '--time', '09:00')).out).toMatch(/Missing --reason/);
  });
});

describe('admin CLI beside npm start', () => {
  // The ports the test run's DynamoDB Local and local host listen on, as npm start would have been told them.
  const running = () => ({ PORT: new URL(host.url).port, DYNAMODB_LOCAL_PORT: new URL(process.env.DYNAMODB_ENDPOINT as string).port });

  it('reaches DynamoDB Local by DYNAMODB_LOCAL_PORT and the local host by PORT, the settings npm start takes', async () => {
    const operator = await createTestOperator(undefined, { stem: 'cli-ports' });
    const env = asBesideNpmStart(running());
    const keys = await adminIn(env, 'list-keys', '--operator', operator.operatorId);
    expect(keys).toEqual({ code: 0, stdout: expect.stringMatching(/^key_\w+\s+ACTIVE\s+ota,usage:read/), stderr: '' });
    const sent = await adminIn(env, 'emit-event', '--operator', operator.operatorId, '--event', 'order-completed');
    expect(sent).toEqual({ code: 0, stdout: expect.stringContaining(`(sent to http://127.0.0.1:${running().PORT})`), stderr: '' });
  });

  it('names the service it could not reach, at the address its settings give', async () => {
    const [apiPort, dynamoPort] = [await freePort(), await freePort()];
    const noApi = await adminIn(asBesideNpmStart({ ...running(), PORT: apiPort }), 'emit-event', '--operator', 'demo');
    expect(noApi).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(
        new RegExp(`^Error: The local host \\(npm start's API and event bus\\) is not reachable at http://127\\.0\\.0\\.1:${apiPort}: `),
      ),
    });
    expect(noApi.stderr).not.toMatch(/DynamoDB/);
    const noDynamo = await adminIn(asBesideNpmStart({ ...running(), DYNAMODB_LOCAL_PORT: dynamoPort }), 'list-keys', '--operator', 'demo');
    expect(noDynamo).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(new RegExp(`^Error: DynamoDB Local is not reachable at http://127\\.0\\.0\\.1:${dynamoPort}: `)),
    });
  });

  it('prints the result lines of record-booking and cancel-booking, and nothing else', async () => {
    const operator = await createTestOperator(testCatalog({ days: 2 }), { stem: 'cli-out' });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'booking-')), 'booking.json');
    const customer = { FirstName: 'Walk', LastName: 'In', Email: 'walk.in@example.com' };
    writeFileSync(file, JSON.stringify({ ActivityID: 's_walk1', Date: tomorrow(), Time: '14:00', Participants: 2, Customer: customer }));
    const env = asBesideNpmStart(running());
    const recorded = await adminIn(env, 'record-booking', '--operator', operator.operatorId, '--channel', 'pos', '--file', file);
    const reference = /^[A-Z0-9]{10}/.exec(recorded.stdout)?.[0] as string;
    expect(recorded).toEqual({ code: 0, stdout: expect.any(String), stderr: '' });
    expect(recorded.stdout.split('\n')).toEqual([
      `${reference}  pos  s_walk1 ${tomorrow()} 14:00  x2`,
      expect.stringMatching(/^Recorded 1 booking\(s\) in table /),
      '',
    ]);
    const cancelled = await adminIn(
      env,
      'cancel-booking',
      '--operator',
      operator.operatorId,
      '--reference',
      reference,
      '--reason',
      'Storm',
    );
    expect(cancelled).toEqual({
      code: 0,
      stdout: expect.stringMatching(new RegExp(`^${reference}  CANCELLED at \\S+  in table [^\\n]+\\n$`)),
      stderr: '',
    });
  });
});
