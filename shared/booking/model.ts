import type { Money } from '../catalog/model';

/** Stored and public shapes of bookings. */

export const CHANNELS = ['ota', 'online', 'pos'] as const;
export type Channel = (typeof CHANNELS)[number];
/** Channels the operator records itself (admin CLI or import); `ota` bookings come only through the partner API. */
export type OperatorChannel = Exclude<Channel, 'ota'>;

export type BookingStatus = 'CONFIRMED' | 'CANCELLED';

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
  Customer: Customer;
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
  Customer: Customer;
  WaiverStatus: WaiverStatus;
  Answers?: Answer[];
  CreatedAt: string;
  CancelledAt?: string;
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
  Customer: {
    FirstName: item.Customer.FirstName,
    LastName: item.Customer.LastName,
    Email: item.Customer.Email,
    ...(item.Customer.Phone ? { Phone: item.Customer.Phone } : {}),
  },
  WaiverStatus: item.WaiverStatus,
  ...(item.Answers ? { Answers: item.Answers.map((answer) => ({ QuestionID: answer.QuestionID, Value: answer.Value })) } : {}),
  CreatedAt: item.CreatedAt,
  ...(item.CancelledAt ? { CancelledAt: item.CancelledAt } : {}),
});
