import { scheduledFunctions } from '../../shared/api/background';
import { recordOperatorBooking } from '../../shared/booking/operator-bookings';
import { getBooking } from '../../shared/booking/repository';
import { addDays, wallClock } from '../../shared/core/calendar';
import { config, configure } from '../../shared/core/config';
import { bundle, bundledBooking, invokeSources, runBundle } from '../support/bundles';
import { testCatalog } from '../support/catalog';
import { createTestOperator, useOwnTable } from '../support/fixtures';

/**
 * The deployed bundle of the retention sweep, on a table of its own (the
 * sweep reads every operator's due bookings), told its retention period by
 * its environment as the stack tells it: a booking whose activity ended three
 * days ago, kept one day, is anonymised by the bundle; the sources then find nothing left to do.
 */
const TABLE = 'ota-usage-bundled-retention';

test('anonymise-bookings: the bundled sweep erases the personal data of a booking past its retention period', async () => {
  await useOwnTable({ tableName: TABLE });
  const start = addDays(wallClock('Europe/Lisbon').date, -3);
  const operator = await createTestOperator(testCatalog({ start, days: 1 }), { stem: 'bundled-retention' });
  // The operator records a sale of three days ago (its till's, entered after the fact).
  const { BookingReference } = await recordOperatorBooking(operator.operatorId, { ...bundledBooking(start, 1), Channel: 'pos' });

  const sweep = scheduledFunctions.find((row) => row.id === 'anonymise-bookings')!;
  const invocations = [{ name: 'scheduled', event: {} }];
  const { outcomes } = await runBundle(await bundle(sweep.id, sweep.entry), invocations, {
    TABLE_NAME: TABLE,
    PERSONAL_DATA_RETENTION_DAYS: '1',
  });
  expect(outcomes).toEqual([{ result: { anonymised: 1 } }]);
  expect(await getBooking(operator.operatorId, BookingReference)).toMatchObject({ ErasedBy: 'retention', Channel: 'pos' });
  expect((await getBooking(operator.operatorId, BookingReference))?.Customer).toBeUndefined();
  configure({ ...config(), retentionDays: 1 });
  expect(await invokeSources(sweep.entry, invocations)).toEqual([{ result: { anonymised: 0 } }]);
});
