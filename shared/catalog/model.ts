import type { Money, Product, Question } from './schemas';

/** Stored shapes of the catalogue (products, timeslots) and its constants; the public shapes are in schemas.ts. */

export const ACTIVITY_ID_PATTERN = '^s_[A-Za-z0-9]{1,64}$';
export const TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

export const QUESTION_TYPES = ['TEXT', 'YES_NO', 'SINGLE_CHOICE', 'DATE', 'FILE_UPLOAD'] as const;

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
