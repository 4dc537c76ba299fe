import { createApiKey } from '../../shared/auth/api-keys';
import { importCatalogue, type CatalogueFile, type CatalogueProduct } from '../../shared/catalog/import';
import { createOperator } from '../../shared/operators/operators';
import { addDays, wallClock } from '../../shared/time/calendar';

/** Loaded only once TABLE_NAME and DYNAMODB_ENDPOINT are set: it reaches shared/config.ts. */

export const BENCH_OPERATOR = { OperatorID: 'bench-operator', Name: 'Bench Coast Tours', TimeZone: 'Europe/Lisbon' };
export const BENCH_ACTIVITY = 's_bench01';
export const PRODUCT_COUNT = 20;
/** Days of timeslots of the benched product: more than the 31-day range the dates scenario asks for. */
export const SEEDED_DAYS = 45;
const BENCH_TIMES = ['09:00', '11:30', '14:00', '17:30'];
const OTHER_PRODUCT_DAYS = 7;
const EVERY_DAY = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;

function product(index: number, firstDate: string): CatalogueProduct {
  const benched = index === 0;
  return {
    ProductID: 9000 + index,
    ActivityID: benched ? BENCH_ACTIVITY : `s_bench${String(index + 1).padStart(2, '0')}`,
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
        To: addDays(firstDate, (benched ? SEEDED_DAYS : OTHER_PRODUCT_DAYS) - 1),
        Weekdays: [...EVERY_DAY],
        Times: benched ? BENCH_TIMES : ['10:00'],
        Capacity: 20,
      },
    ],
  };
}

export interface SeededOperator {
  operatorId: string;
  activityId: string;
  firstDate: string;
  apiKey: string;
  products: number;
  timeslots: number;
}

/** The bench operator: PRODUCT_COUNT products, the benched one with four timeslots a day from tomorrow. */
export async function seedBenchOperator(): Promise<SeededOperator> {
  const firstDate = addDays(wallClock(BENCH_OPERATOR.TimeZone).date, 1);
  await createOperator(BENCH_OPERATOR);
  const catalogue: CatalogueFile = { Products: Array.from({ length: PRODUCT_COUNT }, (_, index) => product(index, firstDate)) };
  const summary = await importCatalogue(BENCH_OPERATOR.OperatorID, catalogue);
  const { secret } = await createApiKey(BENCH_OPERATOR.OperatorID, ['ota'], 'bench');
  return {
    operatorId: BENCH_OPERATOR.OperatorID,
    activityId: BENCH_ACTIVITY,
    firstDate,
    apiKey: secret,
    products: summary.products,
    timeslots: summary.timeslots,
  };
}
