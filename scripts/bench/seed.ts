import { createApiKey, MAX_KEY_LIMITS } from '../../shared/accounts/api-keys';
import type { CatalogProduct } from '../../shared/catalog/catalog-file';
import { importCatalog, type CatalogFile } from '../../shared/catalog/import-catalog';
import { createOperator } from '../../shared/accounts/operators';
import { addDays, wallClock } from '../../shared/core/calendar';
import { MAX_BATCH_ENTRIES } from '../../shared/usage/model';
import { recordUsageBatch } from '../../shared/usage/record-batch';
import { runCalls } from './harness';

export const BENCH_OPERATOR = { OperatorID: 'bench-operator', Name: 'Bench Coast Tours', TimeZone: 'Europe/Lisbon' };
export const BENCH_ACTIVITY = 's_bench01';
export const PRODUCT_COUNT = 20;
/** Days of timeslots of the benched product: more than the 31-day range the dates scenario asks for. */
export const SEEDED_DAYS = 45;
const BENCH_TIMES = ['09:00', '11:30', '14:00', '17:30'];
const OTHER_PRODUCT_DAYS = 7;
const EVERY_DAY = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;

/**
 * The booked product, the last of the PRODUCT_COUNT: every hour from 08:00 to
 * 19:00 for BOOKING_DAYS days at the largest capacity a catalogue allows.
 * Thousands of bookings then neither sell a timeslot out nor (taken in turn)
 * put two concurrent transactions on one timeslot item.
 */
export const BOOKING_ACTIVITY = 's_benchbook';
export const BOOKING_DAYS = 14;
export const BOOKING_TIMES = Array.from({ length: 12 }, (_, i) => `${String(8 + i).padStart(2, '0')}:00`);
const BOOKING_CAPACITY = 10_000;

/** Usage for the summary: an entry per meter per hour over the USAGE_DAYS (UTC) days before today. */
export const USAGE_METERS = ['api-requests', 'storage-gb-hours', 'sms-sent'];
export const USAGE_DAYS = 31;

function product(index: number, firstDate: string): CatalogProduct {
  const benched = index === 0;
  const booked = index === PRODUCT_COUNT - 1;
  return {
    ProductID: 9000 + index,
    ActivityID: benched ? BENCH_ACTIVITY : booked ? BOOKING_ACTIVITY : `s_bench${String(index + 1).padStart(2, '0')}`,
    Name: benched ? 'Cliff Walk and Cove Swim' : `Coastal Experience ${index + 1}`,
    Description: 'A guided half day along the coast with a local guide, small groups, gear and a snack included.',
    DurationMinutes: 90 + index * 5,
    MaxParticipantsPerBooking: 8,
    PricePerParticipant: { Amount: 2500 + index * 100, Currency: 'EUR' },
    Questions: [
      { QuestionID: 'q_name', Text: 'Name of the lead participant', Type: 'TEXT', Required: true },
      { QuestionID: 'q_level', Text: 'Fitness level', Type: 'SINGLE_CHOICE', Required: true, Options: ['Easy', 'Moderate', 'Hard'] },
      {
        QuestionID: 'q_waiver',
        Text: 'Signed waiver',
        Type: 'FILE_UPLOAD',
        Required: true,
        AcceptedFileTypes: ['application/pdf', 'image/jpeg'],
        MaxFileSizeBytes: 2_000_000,
      },
    ],
    Schedules: [
      {
        From: firstDate,
        To: addDays(firstDate, (benched ? SEEDED_DAYS : booked ? BOOKING_DAYS : OTHER_PRODUCT_DAYS) - 1),
        Weekdays: [...EVERY_DAY],
        Times: benched ? BENCH_TIMES : booked ? BOOKING_TIMES : ['10:00'],
        Capacity: booked ? BOOKING_CAPACITY : 20,
      },
    ],
  };
}

export interface SeededOperator {
  operatorId: string;
  timeZone: string;
  activityId: string;
  firstDate: string;
  apiKey: string;
  keyId: string;
  products: number;
  timeslots: number;
  usageEntries: number;
}

/** The first and last day of the seeded usage: the USAGE_DAYS days before today (UTC). */
export function usageRange(now = new Date()): { from: string; to: string } {
  const today = now.toISOString().slice(0, 10);
  return { from: addDays(today, -USAGE_DAYS), to: addDays(today, -1) };
}

/** Records the usage the summary scenario reads, through the service's own batch recording path. */
async function seedUsage(operatorId: string): Promise<number> {
  const { from } = usageRange();
  const start = Date.parse(`${from}T00:00:00Z`) / 1000;
  const entries = Array.from({ length: USAGE_DAYS * 24 * USAGE_METERS.length }, (_, index) => ({
    Meter: USAGE_METERS[index % USAGE_METERS.length],
    Usage: 1 + (index % 7) * 0.25,
    OccurredAt: start + Math.floor(index / USAGE_METERS.length) * 3600 + 600,
  }));
  let next = 0;
  await runCalls(
    () => {
      const batch = entries.slice(next, next + MAX_BATCH_ENTRIES);
      next += MAX_BATCH_ENTRIES;
      return recordUsageBatch(operatorId, batch);
    },
    Math.ceil(entries.length / MAX_BATCH_ENTRIES),
    4,
  );
  return entries.length;
}

/**
 * The bench operator: PRODUCT_COUNT products, the benched one with four timeslots a day from tomorrow and
 * the booked one with twelve; a month of usage; one key with the scopes of every benched route.
 */
export async function seedBenchOperator(): Promise<SeededOperator> {
  const firstDate = addDays(wallClock(BENCH_OPERATOR.TimeZone).date, 1);
  await createOperator(BENCH_OPERATOR);
  const catalog: CatalogFile = { Products: Array.from({ length: PRODUCT_COUNT }, (_, index) => product(index, firstDate)) };
  const summary = await importCatalog(BENCH_OPERATOR.OperatorID, catalog);
  const { secret, record } = await createApiKey(BENCH_OPERATOR.OperatorID, ['ota', 'usage:read', 'usage:write'], 'bench', MAX_KEY_LIMITS);
  const usageEntries = await seedUsage(BENCH_OPERATOR.OperatorID);
  return {
    operatorId: BENCH_OPERATOR.OperatorID,
    timeZone: BENCH_OPERATOR.TimeZone,
    activityId: BENCH_ACTIVITY,
    firstDate,
    apiKey: secret,
    keyId: record.KeyID,
    products: summary.products,
    timeslots: summary.timeslots,
    usageEntries,
  };
}
