import type { ProductItem } from '../catalog/model';
import { config } from '../core/config';
import * as keys from '../db/keys';
import { bookingWritten, type BookingImage } from './booking-announcer';
import { productWritten } from './product-announcer';
import { timeslotWritten, type SlotState } from './timeslot-announcer';

/**
 * What a written item announces, by what it is: a timeslot (its SK), a
 * product, or an OCTo booking. The stream's filters (shared/api/background.ts)
 * hand over only these; anything else is left alone.
 */
export async function announceWrite(image: Record<string, unknown>, now: Date = config().clock()): Promise<string> {
  const key = { PK: String(image.PK), SK: String(image.SK) };
  const slot = keys.timeslotOf(key);
  if (slot) {
    const ref = { OperatorID: slot.operatorId, ActivityID: slot.activityId, Date: slot.date, Time: slot.time };
    return timeslotWritten(ref, image as unknown as SlotState, now);
  }
  const product = keys.productOf(key);
  if (product && image.Entity === 'Product') return productWritten(product.operatorId, image as unknown as ProductItem, now);
  if (image.Entity === 'Booking' && image.UUID && image.PartnerKeyID) {
    return `told ${await bookingWritten(image as unknown as BookingImage, now)}`;
  }
  return 'ignored';
}
