import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { GetCommand, UpdateCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { BookingItem } from '../../shared/booking/model';
import { anonymiseDueBookings } from '../../shared/booking/erasure';
import { emailHash } from '../../shared/booking/personal-data';
import { config, configure } from '../../shared/core/config';
import { DEFAULT_RETENTION_DAYS } from '../../shared/booking/retention';
import { documentClient, tableName } from '../../shared/db/client';
import * as bookingKeys from '../../shared/db/booking-keys';
import { BOOKING, ERASURE, erasureWorld, itemsMentioning, uniqueCustomer } from '../support/erasure';

/**
 * Retention: a booking's personal data is erased a configurable number of
 * days after its activity ends, by the scheduled sweep, a bounded page at a
 * time; bookings made before erasure existed are indexed for it by the admin
 * CLI, which also erases as the operator's route does.
 */
const { world, day, clock } = erasureWorld('ota-usage-retention-test');
const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

/** The real admin CLI on this file's table. */
async function admin(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(path.join(ROOT, 'node_modules/.bin/tsx'), ['bin/admin.ts', ...args, '--table', tableName()], {
      cwd: ROOT,
      env: process.env,
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

const readItem = async (reference: string) =>
  (
    await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: bookingKeys.booking(world.operator.operatorId, reference), ConsistentRead: true }),
    )
  ).Item as (BookingItem & Record<string, unknown>) | undefined;

async function booked(customer: ReturnType<typeof uniqueCustomer>, date: string): Promise<string> {
  const made = await world.request('POST', BOOKING, {
    key: world.operator.key,
    body: { ActivityID: 's_walk1', Date: date, Time: '09:00', Participants: 1, Customer: customer },
  });
  expect(made.status).toBe(201);
  return made.json.data.BookingReference;
}

/** When a booking's activity ends, as it holds it. */
const endOf = async (reference: string) => Date.parse((await readItem(reference))?.EndsAt as string);

afterEach(() => {
  clock.set(new Date());
  configure({ ...config(), retentionDays: undefined });
});

describe('retention', () => {
  test(`erases personal data ${DEFAULT_RETENTION_DAYS} days after the activity ends by default, by the scheduled sweep, not a moment before`, async () => {
    const customer = uniqueCustomer();
    const reference = await booked(customer, day(1));
    const later = await booked(uniqueCustomer(), day(5));
    const due = (await endOf(reference)) + DEFAULT_RETENTION_DAYS * 86_400_000;

    clock.set(new Date(due - 60_000));
    await world.host.scheduler.runOnce();
    expect((await readItem(reference))?.Customer).toEqual(customer);

    clock.set(new Date(due));
    const results = await world.host.scheduler.runOnce();
    expect(results['anonymise-bookings']).toEqual({ anonymised: 1 });
    expect(await readItem(reference)).toMatchObject({ ErasedBy: 'retention', ErasedAt: new Date(due).toISOString(), Status: 'CONFIRMED' });
    expect(await itemsMentioning([customer.Email, customer.LastName])).toEqual([]);
    // Its activity four days later has four more days to go.
    expect((await readItem(later))?.Customer).toBeDefined();
    // Nothing is due again: an erased booking left the sweep's index.
    expect((await world.host.scheduler.runOnce())['anonymise-bookings']).toEqual({ anonymised: 0 });
  });

  test('keeps personal data the number of days the deployment sets, and works through what is due a bounded page at a time', async () => {
    configure({ ...config(), retentionDays: 30 });
    const references = [];
    // The earliest day of this file's bookings: nothing else in the table is due with it.
    for (let index = 0; index < 5; index += 1) references.push(await booked(uniqueCustomer(), day(0)));
    const now = new Date((await endOf(references[0])) + 30 * 86_400_000);
    expect(await anonymiseDueBookings(now, { pageSize: 2, maxPages: 1 })).toBe(2);
    expect(await anonymiseDueBookings(now, { pageSize: 2, maxPages: 2 })).toBe(3);
    for (const reference of references) expect((await readItem(reference))?.ErasedBy).toBe('retention');
  });
});

describe('bookings made before erasure and retention existed', () => {
  test('are indexed by the admin CLI for erasure by email and for the sweep, and are then erased like any other', async () => {
    const customer = uniqueCustomer();
    const reference = await booked(customer, day(7));
    // As written then: no item finds it by email, and it has no entry on the due index.
    await documentClient().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: bookingKeys.customerEntry(world.operator.operatorId, emailHash(customer.Email), reference),
      }),
    );
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: bookingKeys.booking(world.operator.operatorId, reference),
        UpdateExpression: 'REMOVE GSI3PK, GSI3SK',
      }),
    );
    expect((await world.request('POST', ERASURE, { key: world.operator.key, body: { Email: customer.Email } })).json.data.Bookings).toEqual(
      [],
    );

    const indexed = await admin('index-personal-data', '--operator', world.operator.operatorId);
    expect(indexed).toEqual({
      code: 0,
      out: expect.stringMatching(/^Read \d+ booking\(s\) of .*; indexed [1-9]\d* for erasure by email and for retention\n$/),
    });
    expect((await readItem(reference))?.GSI3PK).toBe('DUE#RETENTION');
    // Indexing again writes nothing more.
    expect((await admin('index-personal-data', '--operator', world.operator.operatorId)).out).toMatch(/; indexed 0 for erasure/);

    const erased = await admin('erase-personal-data', '--operator', world.operator.operatorId, '--email', customer.Email.toUpperCase());
    expect(erased).toEqual({
      code: 0,
      out: expect.stringMatching(
        new RegExp(
          `^${reference}  CONFIRMED  s_walk1 ${day(7)} 09:00  erased at \\S+\\nErased the personal data of 1 booking\\(s\\) in table `,
        ),
      ),
    });
    expect(await itemsMentioning([customer.Email])).toEqual([]);
  });

  test('the CLI erases one booking by reference, and refuses a request naming neither or both', async () => {
    const reference = await booked(uniqueCustomer(), day(8));
    expect((await admin('erase-personal-data', '--operator', world.operator.operatorId, '--reference', reference)).out).toMatch(
      new RegExp(`^${reference}  CONFIRMED .* erased at `),
    );
    for (const both of [[], ['--reference', reference, '--email', 'a@example.com']]) {
      expect(await admin('erase-personal-data', '--operator', world.operator.operatorId, ...both)).toEqual({
        code: 1,
        out: expect.stringMatching(/Give --reference REF or --email EMAIL, one of them/),
      });
    }
  });
});
