/** Stored and public shapes of the catalogue: products, questions, timeslots. */

export const ACTIVITY_ID_PATTERN = '^s_[A-Za-z0-9]{1,64}$';
export const TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

export const QUESTION_TYPES = ['TEXT', 'YES_NO', 'SINGLE_CHOICE', 'DATE', 'FILE_UPLOAD'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export interface Question {
  QuestionID: string;
  Text: string;
  Type: QuestionType;
  Required: boolean;
  /** SINGLE_CHOICE only. */
  Options?: string[];
  /** FILE_UPLOAD only: accepted MIME types and the largest file accepted. */
  AcceptedFileTypes?: string[];
  MaxFileSizeBytes?: number;
}

export interface Money {
  /** Minor units (cents), as integers so that no rounding happens in transit. */
  Amount: number;
  /** ISO 4217 code. */
  Currency: string;
}

export interface ProductItem {
  ProductID: number;
  ActivityID: string;
  Name: string;
  NameLower: string;
  Description: string;
  Visible: boolean;
  DurationMinutes: number;
  MaxParticipantsPerBooking: number;
  PricePerParticipant: Money;
  Questions: Question[];
}

export interface Product {
  ProductID: number;
  ActivityID: string;
  Name: string;
  Description: string;
  DurationMinutes: number;
  MaxParticipantsPerBooking: number;
  PricePerParticipant: Money;
  /** The operator's IANA time zone: every Date and Time of this product is local to it. */
  TimeZone: string;
}

export interface TimeslotItem {
  Date: string;
  Time: string;
  Capacity: number;
  Booked: number;
  /**
   * Capacity − Booked, kept as its own attribute because a DynamoDB condition
   * cannot do arithmetic: a booking of n takes places under `Vacancies >= n`.
   * Negative when the catalogue cut the capacity below what was already booked.
   */
  Vacancies: number;
}

export type AvailabilityStatus = 'AVAILABLE' | 'LIMITED' | 'SOLD_OUT';

export interface AvailableDate {
  Date: string;
  Status: AvailabilityStatus;
  /** Free places summed over the date's bookable timeslots. */
  Vacancies: number;
  Capacity: number;
  /** How many of the date's timeslots still have room. */
  AvailableTimeslots: number;
}

export interface AvailableTimeslot {
  Date: string;
  /** HH:MM, local to the product's TimeZone. */
  Time: string;
  /** The same moment as ISO 8601 with the UTC offset that applies on that date. */
  StartsAt: string;
  Status: AvailabilityStatus;
  Vacancies: number;
  Capacity: number;
}

/** A fixed field order, whatever order the stored map came back in. */
export const toQuestion = (question: Question): Question => ({
  QuestionID: question.QuestionID,
  Text: question.Text,
  Type: question.Type,
  Required: question.Required,
  ...(question.Options ? { Options: question.Options } : {}),
  ...(question.AcceptedFileTypes ? { AcceptedFileTypes: question.AcceptedFileTypes } : {}),
  ...(question.MaxFileSizeBytes ? { MaxFileSizeBytes: question.MaxFileSizeBytes } : {}),
});

export const toProduct = (item: ProductItem, timeZone: string): Product => ({
  ProductID: item.ProductID,
  ActivityID: item.ActivityID,
  Name: item.Name,
  Description: item.Description,
  DurationMinutes: item.DurationMinutes,
  MaxParticipantsPerBooking: item.MaxParticipantsPerBooking,
  PricePerParticipant: item.PricePerParticipant,
  TimeZone: timeZone,
});
