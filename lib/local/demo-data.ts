import { createApiKey, listApiKeys } from '../../shared/accounts/api-keys';
import { SCOPES, type Scope } from '../../shared/accounts/scopes';
import { importCatalog, type CatalogFile } from '../../shared/catalog/import-catalog';
import { createOperator, getOperator } from '../../shared/accounts/operators';
import { addDays, wallClock } from '../../shared/core/calendar';
import { DAY_TICKET_TIME } from '../../shared/catalog/constants';
import { config } from '../../shared/core/config';
import { seedDemoHistory, type DemoActivity, type DemoHistory } from './demo-history';
import { putUsageLimit } from '../../shared/usage/limits';
import type { UsageLimitInput } from '../../shared/usage/limit-schemas';

export const DEMO_OPERATOR = { OperatorID: 'demo', Name: 'Atlantic Coast Adventures', TimeZone: 'Europe/Lisbon' };
const DEMO_WEEKS = 4;
/** The catalogue also has the last two weeks' timeslots, for the bookings of its history (demo-history.ts). */
const PAST_DAYS = 14;

/** A small catalogue whose timeslots run from two weeks ago to four weeks from `today`. */
export function demoCatalog(today: string): CatalogFile {
  const from = addDays(today, -PAST_DAYS);
  const to = addDays(today, DEMO_WEEKS * 7 - 1);
  const everyDay = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
  return {
    Products: [
      {
        ProductID: 1001,
        ActivityID: 's_kayak01',
        Name: 'Sunset Kayak Tour',
        Description: 'Two hours along the cliffs at golden hour, guided, all gear included.',
        DurationMinutes: 120,
        MaxParticipantsPerBooking: 6,
        PricePerParticipant: { Amount: 4500, Currency: 'EUR' },
        Questions: [
          { QuestionID: 'q_swim', Text: 'Can every participant swim 50 metres?', Type: 'YES_NO', Required: true },
          { QuestionID: 'q_medical', Text: 'Medical conditions we should know about', Type: 'TEXT', Required: false },
          {
            QuestionID: 'q_idphoto',
            Text: 'Photo of the lead participant’s ID document',
            Type: 'FILE_UPLOAD',
            Required: true,
            AcceptedFileTypes: ['image/jpeg', 'image/png', 'application/pdf'],
            MaxFileSizeBytes: 5_000_000,
          },
        ],
        Schedules: [{ From: from, To: to, Weekdays: [...everyDay], Times: ['10:00', '17:30'], Capacity: 12 }],
      },
      {
        ProductID: 1002,
        ActivityID: 's_surf01',
        Name: 'Surf Lesson for Beginners',
        Description: 'Board, wetsuit and a patient instructor.',
        DurationMinutes: 90,
        MaxParticipantsPerBooking: 4,
        PricePerParticipant: { Amount: 3500, Currency: 'EUR' },
        Questions: [
          { QuestionID: 'q_wetsuit', Text: 'Wetsuit size', Type: 'SINGLE_CHOICE', Required: true, Options: ['XS', 'S', 'M', 'L', 'XL'] },
          {
            QuestionID: 'q_waiver',
            Text: 'Signed liability waiver',
            Type: 'FILE_UPLOAD',
            Required: true,
            AcceptedFileTypes: ['application/pdf'],
            MaxFileSizeBytes: 2_000_000,
          },
        ],
        Schedules: [{ From: from, To: to, Weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'], Times: ['09:00', '14:00'], Capacity: 8 }],
      },
      {
        ProductID: 1003,
        ActivityID: 's_tuktuk01',
        Name: 'Old Town Tuk-Tuk Tour',
        Description: 'The seven hills without the climb.',
        DurationMinutes: 60,
        MaxParticipantsPerBooking: 6,
        PricePerParticipant: { Amount: 2500, Currency: 'EUR' },
        Questions: [{ QuestionID: 'q_dob', Text: 'Date of birth of the lead participant', Type: 'DATE', Required: false }],
        Schedules: [{ From: from, To: to, Weekdays: [...everyDay], Times: ['11:00', '15:00'], Capacity: 6 }],
      },
      {
        ProductID: 1004,
        ActivityID: 's_charter01',
        Name: 'Private Boat Charter',
        Description: 'Sold by phone only; not in the shopfront.',
        Visible: false,
        DurationMinutes: 240,
        MaxParticipantsPerBooking: 10,
        PricePerParticipant: { Amount: 12000, Currency: 'EUR' },
        Schedules: [{ From: from, To: to, Weekdays: ['SAT', 'SUN'], Times: ['10:00'], Capacity: 10 }],
      },
      {
        ProductID: 1005,
        ActivityID: 's_dolphin01',
        Name: 'Dolphin Watching Cruise',
        Description: 'Two and a half hours on the estuary with a marine biologist.',
        DurationMinutes: 150,
        MaxParticipantsPerBooking: 6,
        PricePerParticipant: { Amount: 3900, Currency: 'EUR' },
        Units: [
          { UnitID: 'adult', Name: 'Adult', Type: 'ADULT', Price: { Amount: 3900, Currency: 'EUR' }, MinAge: 18, MaxAge: 99 },
          { UnitID: 'child', Name: 'Child', Type: 'CHILD', Price: { Amount: 1950, Currency: 'EUR' }, MinAge: 4, MaxAge: 17 },
          {
            UnitID: 'infant',
            Name: 'Infant',
            Type: 'INFANT',
            Price: { Amount: 0, Currency: 'EUR' },
            MinAge: 0,
            MaxAge: 3,
            AccompaniedBy: ['adult'],
          },
        ],
        Schedules: [{ From: from, To: to, Weekdays: [...everyDay], Times: ['10:00', '14:30'], Capacity: 200 }],
      },
      {
        ProductID: 1006,
        ActivityID: 's_foodwalk01',
        Name: 'Lisbon Food Walk',
        Description: 'Nine tastings in three neighbourhoods.',
        DurationMinutes: 180,
        MaxParticipantsPerBooking: 6,
        PricePerParticipant: { Amount: 5900, Currency: 'EUR' },
        Units: [
          { UnitID: 'adult', Name: 'Adult', Type: 'ADULT', Price: { Amount: 5900, Currency: 'EUR' }, MinAge: 18, MaxAge: 99 },
          { UnitID: 'youth', Name: 'Youth', Type: 'YOUTH', Price: { Amount: 3900, Currency: 'EUR' }, MinAge: 12, MaxAge: 17 },
        ],
        Schedules: [{ From: from, To: to, Weekdays: [...everyDay], Times: ['11:00', '18:00'], Capacity: 24 }],
      },
      {
        ProductID: 1007,
        ActivityID: 's_museum01',
        Name: 'Maritime Museum Day Ticket',
        Description: 'Any time the museum is open, all galleries.',
        AvailabilityType: 'OPENING_HOURS',
        DurationMinutes: 120,
        MaxParticipantsPerBooking: 10,
        PricePerParticipant: { Amount: 1200, Currency: 'EUR' },
        Units: [
          { UnitID: 'adult', Name: 'Adult', Type: 'ADULT', Price: { Amount: 1200, Currency: 'EUR' }, MinAge: 18, MaxAge: 64 },
          { UnitID: 'child', Name: 'Child', Type: 'CHILD', Price: { Amount: 600, Currency: 'EUR' }, MinAge: 4, MaxAge: 17 },
          { UnitID: 'senior', Name: 'Senior', Type: 'SENIOR', Price: { Amount: 900, Currency: 'EUR' }, MinAge: 65, MaxAge: 99 },
        ],
        Schedules: [{ From: from, To: to, Weekdays: [...everyDay], OpeningHours: [{ From: '10:00', To: '18:00' }], Capacity: 300 }],
      },
    ],
  };
}

/**
 * The demo's usage limits, so that the usage tab has something to show: its
 * API's calls per month (alerts only), the orders of a day (a built-in
 * meter), and a hard cap on text messages.
 */
export const DEMO_LIMITS: (UsageLimitInput & { LimitID: string })[] = [
  { LimitID: 'api-calls-monthly', Meter: 'api-calls', Period: 'MONTH', Amount: 250_000, Thresholds: [50, 80, 100], Enforcement: 'NONE' },
  { LimitID: 'orders-daily', Meter: 'order-completed', Period: 'DAY', Amount: 8, Thresholds: [50, 100], Enforcement: 'NONE' },
  { LimitID: 'sms-monthly-cap', Meter: 'sms-sent', Period: 'MONTH', Amount: 2_000, Thresholds: [80, 100], Enforcement: 'REFUSE' },
];

const DEMO_KEY_SCOPES = Object.keys(SCOPES) as Scope[];
const DEMO_KEY_NAME = 'Demo key';

/** What the history books: each activity's timeslot times, its largest party and whether partners may sell it. */
export const demoActivities = (catalog: CatalogFile): DemoActivity[] =>
  catalog.Products.map((product) => ({
    activityId: product.ActivityID,
    weekdays: [...new Set((product.Schedules ?? []).flatMap((schedule) => schedule.Weekdays))],
    // A day ticket's day is its timeslot at DAY_TICKET_TIME.
    times: [...new Set((product.Schedules ?? []).flatMap((schedule) => schedule.Times ?? [DAY_TICKET_TIME]))],
    maxParty: product.MaxParticipantsPerBooking,
    visible: product.Visible ?? true,
  }));

export interface SeededDemo {
  newKey?: { keyId: string; secret: string };
  /** When the operator is new: its history, being written (a minute or so), which the caller may await or let run. */
  history?: Promise<DemoHistory>;
}

/**
 * Creates the demo operator, its usage limits, its first key and its
 * history (demo-history.ts) when missing; on every run refreshes the catalogue so its timeslots run
 * from two weeks ago to four weeks ahead (re-importing keeps what is booked).
 */
export async function seedDemo(now: Date = config().clock()): Promise<SeededDemo> {
  const today = wallClock(DEMO_OPERATOR.TimeZone, now).date;
  const catalog = demoCatalog(today);
  const isNew = !(await getOperator(DEMO_OPERATOR.OperatorID));
  if (isNew) {
    await createOperator(DEMO_OPERATOR);
    for (const { LimitID, ...limit } of DEMO_LIMITS)
      await putUsageLimit({ operatorId: DEMO_OPERATOR.OperatorID, timeZone: DEMO_OPERATOR.TimeZone }, LimitID, limit, now);
  }
  await importCatalog(DEMO_OPERATOR.OperatorID, catalog);
  const history = isNew ? seedDemoHistory(DEMO_OPERATOR, demoActivities(catalog), today, now) : undefined;
  // Its failure is the caller's to report, whenever it looks: not an unhandled rejection meanwhile.
  history?.catch(() => undefined);
  if ((await listApiKeys(DEMO_OPERATOR.OperatorID)).some((key) => key.Name === DEMO_KEY_NAME)) return { history };
  const { record, secret } = await createApiKey(DEMO_OPERATOR.OperatorID, DEMO_KEY_SCOPES, DEMO_KEY_NAME);
  return { newKey: { keyId: record.KeyID, secret }, history };
}
