import type { OpeningHours } from '../catalog/schemas';
import type { Booking, Contact } from './schemas';

/** Stored shapes of bookings and their constants; the public shapes are in schemas.ts. */

/**
 * Booking references: 10 characters from an alphabet without look-alikes
 * (no 0/O, 1/I/L), so a reference survives being read over the phone.
 * 31^10 ≈ 8 × 10^14 values (about 49 bits) drawn from the OS's CSPRNG make
 * references unguessable; the booking is written with attribute_not_exists,
 * so a collision is retried with a new reference and can never overwrite.
 */
export const REFERENCE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const REFERENCE_LENGTH = 10;
/** Accepts lower case too: a reference typed from a phone call is upper-cased before use. */
export const REFERENCE_PATTERN = `^[${REFERENCE_ALPHABET}${REFERENCE_ALPHABET.toLowerCase().replace(/[0-9]/g, '')}]{${REFERENCE_LENGTH}}$`;

/** Pages of the operator's list: `limit` defaults to this ... */
export const DEFAULT_PAGE_SIZE = 50;
/** ... and may be at most this. */
export const MAX_PAGE_SIZE = 200;

export const CHANNELS = ['ota', 'online', 'pos'] as const;
export type Channel = (typeof CHANNELS)[number];
/** Channels the operator records itself (admin CLI or import); `ota` bookings come only through the partner API. */
export type OperatorChannel = Exclude<Channel, 'ota'>;

/**
 * A booking's life: ON_HOLD → CONFIRMED → CANCELLED, ON_HOLD → CANCELLED,
 * ON_HOLD → EXPIRED. Held and confirmed bookings take places; moving to
 * CANCELLED or EXPIRED gives them back, once, in the same transaction.
 */
export const BOOKING_STATUSES = ['ON_HOLD', 'CONFIRMED', 'CANCELLED', 'EXPIRED'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Hold lengths a partner may ask for, in minutes; a hold without ExpiresInMinutes lasts the default. */
export const HOLD_MINUTES = { min: 1, max: 60, default: 15 } as const;

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
});

/** What a key remembers of the booking it made: the request's hash and the original response. */
export interface IdempotencyRecord {
  RequestHash: string;
  BookingReference: string;
  /** The `data` of the original 201 response, as JSON text. */
  Response: string;
  CreatedAt: string;
  /** Unix seconds. */
  ExpiresAt: number;
}

/** Idempotency records of bookings live this long (DynamoDB TTL on ExpiresAt). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
