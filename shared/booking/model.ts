import type { OpeningHours } from '../catalog/schemas';
import type { Booking, Contact } from './schemas';
import type { ErasedBy } from './personal-data';

/** Stored shapes of bookings, on the public shapes of schemas.ts; the constants are in constants.ts. */

/** One unit item of a booking a partner addresses by UUID (OCTo): each booked unit, one by one, with its own UUID. */
export interface UnitItem {
  UUID: string;
  UnitID: string;
}

export interface BookingItem extends Booking {
  OperatorID: string;
  /** Bookings a partner addresses by its own UUID (OCTo): that UUID, lower-case. */
  UUID?: string;
  /** The SHA-256 of the request that made a UUID booking: the same UUID with another request is refused. */
  RequestHash?: string;
  UnitItems?: UnitItem[];
  Contact?: Contact;
  Notes?: string;
  /** Day tickets: the day's opening hours, so the booking is rendered and checked without reading its timeslot. */
  OpeningHours?: OpeningHours;
  /** The activity's end on the wall clock, ISO 8601 with the offset of that moment. */
  EndsAt?: string;
  /** Set when the booking is made and by every change after: what OCTo calls utcUpdatedAt. */
  UpdatedAt?: string;
  /** 1 when made, one more with every change: each change is conditioned on the version it read (transactions.ts). */
  Version?: number;
  /** A partner's hold counted in its key's held places (held-places.ts); absent for holds made before they were counted. */
  HoldCounted?: boolean;
  /** The SHA-256 of the Idempotency-Key it was made with: its stored answer is found by it, to be erased with the booking. */
  IdempotencyKeyHash?: string;
  /** The webhook deliveries written about it, whose payloads are erased with it. */
  DeliveryIDs?: string[];
  /** Who erased its personal data, when ErasedAt says it was. */
  ErasedBy?: ErasedBy;
}

export const toBooking = (item: BookingItem): Booking => ({
  BookingReference: item.BookingReference,
  Status: item.Status,
  Channel: item.Channel,
  ...(item.PartnerKeyID ? { PartnerKeyID: item.PartnerKeyID } : {}),
  ...(item.PaymentReference ? { PaymentReference: item.PaymentReference } : {}),
  ActivityID: item.ActivityID,
  ProductID: item.ProductID,
  ActivityName: item.ActivityName,
  Date: item.Date,
  Time: item.Time,
  StartsAt: item.StartsAt,
  Participants: item.Participants,
  ...(item.Units ? { Units: item.Units.map((unit) => ({ UnitID: unit.UnitID, Quantity: unit.Quantity, UnitPrice: unit.UnitPrice })) } : {}),
  TotalPrice: item.TotalPrice,
  ...(item.Customer
    ? {
        Customer: {
          FirstName: item.Customer.FirstName,
          LastName: item.Customer.LastName,
          Email: item.Customer.Email,
          ...(item.Customer.Phone ? { Phone: item.Customer.Phone } : {}),
        },
      }
    : {}),
  WaiverStatus: item.WaiverStatus,
  ...(item.Answers ? { Answers: item.Answers.map((answer) => ({ QuestionID: answer.QuestionID, Value: answer.Value })) } : {}),
  CreatedAt: item.CreatedAt,
  ...(item.HoldExpiresAt ? { HoldExpiresAt: item.HoldExpiresAt } : {}),
  ...(item.ConfirmedAt ? { ConfirmedAt: item.ConfirmedAt } : {}),
  ...(item.ExpiredAt ? { ExpiredAt: item.ExpiredAt } : {}),
  ...(item.CancelledAt ? { CancelledAt: item.CancelledAt } : {}),
  ...(item.CancelledBy ? { CancelledBy: item.CancelledBy } : {}),
  ...(item.CancellationReason ? { CancellationReason: item.CancellationReason } : {}),
  ...(item.ResellerReference ? { ResellerReference: item.ResellerReference } : {}),
  ...(item.ErasedAt ? { ErasedAt: item.ErasedAt } : {}),
});

/** What a key remembers of the booking it made (or the timeslot it cancelled): the request's hash and the original response. */
export interface IdempotencyRecord {
  RequestHash: string;
  /** The booking the key made; absent for the other write a key can guard, a timeslot's cancellation. */
  BookingReference?: string;
  /** What the key was used for, in words, when it was not a booking. */
  Of?: string;
  /** The `data` of the original response, as JSON text. */
  Response: string;
  CreatedAt: string;
  /** Unix seconds. */
  ExpiresAt: number;
}
