import { listOperatorBookings } from '../../shared/booking/list';
import { operatorManifest } from '../../shared/booking/manifest';
import { importCatalog } from '../../shared/catalog/import-catalog';
import { addDays, wallClock } from '../../shared/core/calendar';
import { summarizeUsage } from '../../shared/usage/summary';
import { demoActivities, demoCatalog } from '../../lib/local/demo-data';
import { seedDemoHistory } from '../../lib/local/demo-history';
import { createTestOperator } from '../support/fixtures';

/**
 * The first start shows something on every screen: the demo's history
 * (lib/local/demo-history.ts), written through the domain for an operator of
 * this test's own, has bookings of every channel and every end of a
 * booking's life, full manifests today and tomorrow, and months of usage on
 * custom and built-in meters.
 */
const TIME_ZONE = 'Europe/Lisbon';

test('the demo history fills the bookings list, the manifests and the usage chart', async () => {
  const now = new Date();
  const today = wallClock(TIME_ZONE, now).date;
  const operator = await createTestOperator(undefined, { stem: 'demo-history' });
  const catalog = demoCatalog(today);
  await importCatalog(operator.operatorId, catalog);

  const written = await seedDemoHistory({ OperatorID: operator.operatorId, TimeZone: TIME_ZONE }, demoActivities(catalog), today, now);

  const caller = { operatorId: operator.operatorId, keyId: 'key_test', scopes: ['bookings:read'], timeZone: TIME_ZONE };
  const bookings = [];
  let cursor: string | undefined;
  do {
    const page = await listOperatorBookings(caller, { from: addDays(today, -14), to: today, limit: '200', ...(cursor ? { cursor } : {}) });
    bookings.push(...page.Bookings);
    cursor = page.NextCursor ?? undefined;
  } while (cursor);
  expect(bookings.length).toBe(written.bookings);
  const kinds = new Set(
    bookings.map((booking) => `${booking.Channel} ${booking.Status}${booking.CancelledBy ? ` by ${booking.CancelledBy}` : ''}`),
  );
  for (const kind of [
    'ota CONFIRMED',
    'online CONFIRMED',
    'pos CONFIRMED',
    'ota ON_HOLD',
    'ota EXPIRED',
    'ota CANCELLED by partner',
    'ota CANCELLED by operator',
  ]) {
    expect(kinds).toContain(kind);
  }
  for (const day of [today, addDays(today, 1)]) {
    const manifest = await operatorManifest(caller, day);
    expect(manifest.Participants).toBeGreaterThan(0);
    expect(manifest.Timeslots.length).toBeGreaterThan(1);
  }
  expect((await operatorManifest(caller, addDays(today, 1))).Timeslots.some((slot) => slot.HeldParticipants > 0)).toBe(true);

  const { summary } = await summarizeUsage(operator.operatorId, { from: addDays(today, -95), to: today, granularity: 'month' });
  expect(summary.Totals.Events).toBe(written.usageEntries);
  expect(summary.Meters.map((meter) => meter.Meter).sort()).toEqual(
    ['api-calls', 'order-completed', 'sms-sent', 'storage-gb', 'waitlist-notified', 'workflow-email-sent'].sort(),
  );
  for (const meter of summary.Meters) expect(meter.Months?.filter((month) => month.Events > 0).length).toBeGreaterThanOrEqual(3);
}, 300_000);
