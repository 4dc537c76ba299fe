import { config } from '../core/config';
import { tell } from './fan-out';

/**
 * A booking's write, from the table's stream: OCTo's BOOKING_UPDATE to the
 * subscriptions of the key that made it, and only to those (a partner never
 * hears of another's bookings). As OCTo specifies, a notification names what
 * to fetch, not the booking itself: its `uuid`. Each Version of the booking
 * is one notification; handed over twice, it is delivered once. The
 * marketplace's booking webhooks are written with the change itself, as before.
 */
export interface BookingImage {
  OperatorID: string;
  PartnerKeyID: string;
  UUID: string;
  BookingReference: string;
  Version?: number;
}

export const bookingWritten = (booking: BookingImage, now: Date = config().clock()): Promise<number> =>
  tell(
    {
      operatorId: booking.OperatorID,
      id: `booking#${booking.BookingReference}#${booking.Version ?? 0}`,
      octo: { type: 'BOOKING_UPDATE', data: { uuid: booking.UUID } },
      keyId: booking.PartnerKeyID,
    },
    now,
  );
