import type { Money } from '../catalog/model';

/** Stored and public shapes of bookings. */

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

export type CancelledBy = 'partner' | 'operator';

/**
 * COMPLETE: every required waiver question was answered with the booking (or
 * the activity has none). PENDING: the booking came without answers while
 * the activity has required questions; the customer completes the waiver later.
 */
export type WaiverStatus = 'COMPLETE' | 'PENDING';

export interface Customer {
  FirstName: string;
  LastName: string;
  Email: string;
  /** E.164, e.g. +351912345678. */
  Phone?: string;
}

export interface Answer {
  QuestionID: string;
  Value: string;
}

/** What a partner (or the operator) asks for. */
export interface BookingRequest {
  ActivityID: string;
  Date: string;
  Time: string;
  Participants: number;
  /** Optional only for holds: a hold may leave it for the confirmation. */
  Customer?: Customer;
  PaymentReference?: string;
  Answers?: Answer[];
  /** Asks for a hold instead of a confirmed booking. */
  Hold?: { ExpiresInMinutes?: number };
}

/** What a confirmation may add to its hold (each replaces what the hold had). */
export interface ConfirmationRequest {
  Customer?: Customer;
  PaymentReference?: string;
  Answers?: Answer[];
}

/** The public form of a booking, as every endpoint returns it. */
export interface Booking {
  BookingReference: string;
  Status: BookingStatus;
  Channel: Channel;
  /** The API key the booking was made with: the partner, for `ota` bookings. */
  PartnerKeyID?: string;
  /** The partner's (or till's) own reference for the payment it took. */
  PaymentReference?: string;
  ActivityID: string;
  ProductID: number;
  ActivityName: string;
  Date: string;
  Time: string;
  /** The start as ISO 8601 with the operator's UTC offset on that date. */
  StartsAt: string;
  Participants: number;
  /** PricePerParticipant × Participants when the booking was made. */
  TotalPrice: Money;
  /** Absent only on a hold made without one. */
  Customer?: Customer;
  WaiverStatus: WaiverStatus;
  Answers?: Answer[];
  CreatedAt: string;
  /** ON_HOLD (and EXPIRED) bookings: when the hold lets its places go. */
  HoldExpiresAt?: string;
  ConfirmedAt?: string;
  ExpiredAt?: string;
  CancelledAt?: string;
  CancelledBy?: CancelledBy;
  /** The operator's reason, when the operator cancelled. */
  CancellationReason?: string;
}

export interface BookingItem extends Booking {
  OperatorID: string;
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
