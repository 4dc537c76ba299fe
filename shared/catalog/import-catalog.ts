import { requireOperator } from '../accounts/operators';
import { config } from '../core/config';
import type { CatalogFile } from './catalog-file';
import { checkAgainstStored, checkCatalog, startTimesOf, type SkippedStart } from './catalog-rules';
import type { ProductItem } from './model';
import { putProduct, putTimeslotCapacity, queryProductIdentities } from './repository';

export type { CatalogFile };

const WRITE_CONCURRENCY = 16;

async function inBatches<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < items.length; start += WRITE_CONCURRENCY) {
    await Promise.all(items.slice(start, start + WRITE_CONCURRENCY).map(work));
  }
}

export interface ImportSummary {
  products: number;
  timeslots: number;
  /** A schedule's starts left out because the clocks skip that time on that date (a change to daylight saving time). */
  skipped: SkippedStart[];
}

/**
 * Imports a catalogue for an operator. Running it twice changes nothing the
 * second time: products are replaced whole, timeslots get the file's
 * capacity and keep the places already booked on them.
 */
export async function importCatalog(operatorId: string, input: unknown, now: Date = config().clock()): Promise<ImportSummary> {
  const operator = await requireOperator(operatorId);
  const { catalog, timeslots, skipped } = checkCatalog(input, operator.TimeZone);
  checkAgainstStored(catalog, await queryProductIdentities(operatorId));
  await inBatches(catalog.Products, (product) => {
    const item: ProductItem = {
      ProductID: product.ProductID,
      ActivityID: product.ActivityID,
      Name: product.Name.trim(),
      NameLower: product.Name.trim().toLowerCase(),
      Description: product.Description ?? '',
      Visible: product.Visible ?? true,
      DurationMinutes: product.DurationMinutes,
      MaxParticipantsPerBooking: product.MaxParticipantsPerBooking,
      PricePerParticipant: product.PricePerParticipant,
      Questions: product.Questions ?? [],
      AvailabilityType: product.AvailabilityType ?? 'START_TIME',
      ...(product.Units ? { Units: product.Units } : {}),
      ...(product.AvailabilityType === 'OPENING_HOURS' ? {} : { StartTimes: startTimesOf(product) }),
    };
    return putProduct(operatorId, item);
  });
  const slotWrites = catalog.Products.flatMap((product, index) => timeslots[index].map((slot) => ({ product, slot })));
  await inBatches(slotWrites, ({ product, slot }) => putTimeslotCapacity(operatorId, product.ActivityID, slot, now.toISOString()));
  return { products: catalog.Products.length, timeslots: slotWrites.length, skipped };
}
