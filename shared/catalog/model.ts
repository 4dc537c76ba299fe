import type { AvailabilityType } from './constants';
import type { Money, OpeningHours, Product, Question, Unit } from './schemas';

/** Stored shapes of the catalogue (products, timeslots), on the public shapes of schemas.ts; the constants are in constants.ts. */

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
  /** Absent on products imported before day tickets existed: START_TIME. */
  AvailabilityType?: AvailabilityType;
  /** The catalogue's units; absent when it names none (one adult unit at PricePerParticipant, see units.ts). */
  Units?: Unit[];
  /** START_TIME products: the distinct start times of their schedules and one-off timeslots, `HH:MM`, ascending. */
  StartTimes?: string[];
}

export interface TimeslotItem {
  Date: string;
  Time: string;
  /** Day tickets only: when the day's visits may begin and end (the day is sold until its last closing). */
  OpeningHours?: OpeningHours;
  Capacity: number;
  Booked: number;
  /**
   * Capacity − Booked, kept as its own attribute because a DynamoDB condition
   * cannot do arithmetic: a booking of n takes places under `Vacancies >= n`.
   * Negative when the catalogue cut the capacity below what was already booked.
   */
  Vacancies: number;
  /** One more with every write of the timeslot (timeslot-writes.ts): the order of its changes. Absent only before its first write. */
  Sequence?: number;
  /** When the change of that Sequence was made (ISO 8601 UTC). */
  ChangedAt?: string;
  /** Closed by the operator: nothing is sold on it, on any channel; its bookings stay. Absent: open. */
  Closed?: boolean;
  /** While closed: the operator's reason (when given), the key that closed it and when. */
  ClosedReason?: string;
  ClosedBy?: string;
  ClosedAt?: string;
  /** The last reopening: the key and when. */
  ReopenedBy?: string;
  ReopenedAt?: string;
  /** The last change of capacity by the operator (not by a catalogue import): the key and when. */
  CapacityChangedBy?: string;
  CapacityChangedAt?: string;
  /** Timeslots the operator added one by one (not by a catalogue import): the key and when. */
  AddedBy?: string;
  AddedAt?: string;
  /** The last cancellation of the timeslot's bookings; while it has no FinishedAt the timeslot is due on the sweep and cannot reopen. */
  Cancellation?: CancellationMarker;
}

/** A cancellation of a timeslot's bookings, as its timeslot carries it: what, by whom, since when, and once done when it ended. */
export interface CancellationMarker {
  Reason: string;
  By: string;
  StartedAt: string;
  FinishedAt?: string;
  /** Whose timeslot, for the sweep that finds it by its due entry alone. */
  OperatorID: string;
  ActivityID: string;
}

/** A timeslot as every channel shows it: by the places left, or CLOSED by the operator. */
export const AVAILABILITY_STATUSES = ['AVAILABLE', 'LIMITED', 'SOLD_OUT', 'CLOSED'] as const;
export type AvailabilityStatus = (typeof AVAILABILITY_STATUSES)[number];

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
  // Only what existing products did not have before, so their records are unchanged.
  ...(item.AvailabilityType === 'OPENING_HOURS' ? { AvailabilityType: item.AvailabilityType } : {}),
  ...(item.Units ? { Units: item.Units.map(toUnit) } : {}),
});

/** A fixed field order, with the defaults of fields the catalogue left out. */
export const toUnit = (unit: Unit): Unit => ({
  UnitID: unit.UnitID,
  Name: unit.Name,
  Type: unit.Type,
  Price: unit.Price,
  MinAge: unit.MinAge ?? 0,
  MaxAge: unit.MaxAge ?? 99,
  ...(unit.MinQuantity === undefined ? {} : { MinQuantity: unit.MinQuantity }),
  ...(unit.MaxQuantity === undefined ? {} : { MaxQuantity: unit.MaxQuantity }),
  PaxCount: unit.PaxCount ?? 1,
  AccompaniedBy: unit.AccompaniedBy ?? [],
});
