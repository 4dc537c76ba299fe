import { addDays, daysBetween, skippedBy } from '../core/calendar';
import { ValidationError } from '../core/errors';
import { checkedBy } from '../core/validation';
import { MAX_SCHEDULE_DAYS, WEEKDAYS, type CatalogFile, type CatalogProduct } from './catalog-file';
import { catalogFile } from './catalog-file.generated';
import { DAY_TICKET_TIME } from './constants';
import type { ProductItem } from './model';
import { checkOneOffTimeslot, checkOpeningHours, oneOffRow, type SlotRow } from './one-off-timeslots';
import type { Question } from './schemas';
import { checkTimeslotTime } from './timeslot-start';

/** The rules of a catalogue file that its schema cannot state, checked in full before anything is written. */

const validateCatalogFile = checkedBy<CatalogFile>(catalogFile, 'The catalogue');

const entryName = (index: number, product: CatalogProduct) => `Products[${index}] (${product.ActivityID})`;

function findDuplicate<T>(values: T[]): T | undefined {
  const seen = new Set<T>();
  return values.find((value) => (seen.has(value) ? true : (seen.add(value), false)));
}

function checkQuestions(entry: string, questions: Question[]): void {
  const duplicate = findDuplicate(questions.map((q) => q.QuestionID));
  if (duplicate) throw new ValidationError(`${entry}: QuestionID '${duplicate}' appears twice`);
  for (const question of questions) {
    if ((question.Type === 'SINGLE_CHOICE') !== (question.Options !== undefined)) {
      throw new ValidationError(`${entry}: question '${question.QuestionID}' must have Options exactly when its Type is SINGLE_CHOICE`);
    }
    const fileRules = question.AcceptedFileTypes !== undefined || question.MaxFileSizeBytes !== undefined;
    if (fileRules && question.Type !== 'FILE_UPLOAD') {
      throw new ValidationError(`${entry}: question '${question.QuestionID}' has file rules but its Type is not FILE_UPLOAD`);
    }
  }
}

/** A product's units: unique IDs in one currency, coherent limits, and a first unit that is what a participant books. */
function checkUnits(index: number, product: CatalogProduct): void {
  const units = product.Units ?? [];
  if (!units.length) return;
  const field = (unit: number, name: string) => `Products[${index}].Units[${unit}].${name}`;
  const duplicate = findDuplicate(units.map((unit) => unit.UnitID));
  if (duplicate) throw new ValidationError(`${entryName(index, product)}: UnitID '${duplicate}' appears twice`);
  const ids = new Set(units.map((unit) => unit.UnitID));
  units.forEach((unit, position) => {
    if (unit.Price.Currency !== product.PricePerParticipant.Currency) {
      throw new ValidationError(`must be in ${product.PricePerParticipant.Currency}, the currency of PricePerParticipant`, {
        field: field(position, 'Price.Currency'),
      });
    }
    if ((unit.MinAge ?? 0) > (unit.MaxAge ?? 99))
      throw new ValidationError('must not be above MaxAge', { field: field(position, 'MinAge') });
    if (unit.MinQuantity !== undefined && unit.MaxQuantity !== undefined && unit.MinQuantity > unit.MaxQuantity) {
      throw new ValidationError('must not be above MaxQuantity', { field: field(position, 'MinQuantity') });
    }
    for (const other of unit.AccompaniedBy ?? []) {
      if (!ids.has(other) || other === unit.UnitID) {
        throw new ValidationError(`names '${other}', which is not another unit of the product`, {
          field: field(position, 'AccompaniedBy'),
        });
      }
    }
  });
  // A marketplace booking of `Participants: n` books n of the first unit at PricePerParticipant.
  const [first] = units;
  if (first.Price.Amount !== product.PricePerParticipant.Amount || (first.PaxCount ?? 1) !== 1 || first.AccompaniedBy?.length) {
    throw new ValidationError(
      'must be what one participant books: priced at PricePerParticipant, PaxCount 1, accompanied by no other unit',
      { field: `Products[${index}].Units[0]` },
    );
  }
}

/** Start-time products give Times (and one-off Time); day tickets give OpeningHours instead, never both. */
function checkSchedulesFit(index: number, product: CatalogProduct): void {
  const dayTicket = product.AvailabilityType === 'OPENING_HOURS';
  const [wanted, unwanted] = dayTicket ? (['OpeningHours', 'Times'] as const) : (['Times', 'OpeningHours'] as const);
  (product.Schedules ?? []).forEach((schedule, position) => {
    const field = `Products[${index}].Schedules[${position}]`;
    if (schedule[wanted] === undefined) throw new ValidationError('is required', { field: `${field}.${wanted}` });
    if (schedule[unwanted] !== undefined) {
      throw new ValidationError(`is not allowed: ${dayTicket ? 'a day ticket opens for hours' : 'give Times'}`, {
        field: `${field}.${unwanted}`,
      });
    }
    if (schedule.OpeningHours) checkOpeningHours(`${field}.OpeningHours`, schedule.OpeningHours);
  });
  (product.Timeslots ?? []).forEach((slot, position) => checkOneOffTimeslot(dayTicket, slot, `Products[${index}].Timeslots[${position}]`));
}

/** A schedule's start that the clocks skip on one of its dates: left out of the import, and reported. */
export interface SkippedStart {
  activityId: string;
  date: string;
  time: string;
}

/**
 * Expands schedules and one-off slots into one row per date and time (a day
 * ticket's day at DAY_TICKET_TIME); a later entry overrides an earlier one.
 * A schedule's time that the clocks skip on a date (in `timeZone`) is left
 * out that date (and named once, however many schedules cover it); a
 * one-off timeslot at such a time is refused.
 */
export function expandTimeslots(
  entry: { name: string; index: number },
  product: CatalogProduct,
  timeZone: string,
): { rows: SlotRow[]; skipped: SkippedStart[] } {
  // By date and time: two schedules that cover the same start make one row, and one skipped start.
  const rows = new Map<string, SlotRow>();
  const skipped = new Map<string, SkippedStart>();
  const at = (date: string, time: string) => `${date} ${time}`;
  const add = (row: SlotRow) => rows.set(at(row.Date, row.Time), row);
  (product.Schedules ?? []).forEach((schedule, index) => {
    const span = daysBetween(schedule.From, schedule.To);
    if (span < 0) throw new ValidationError(`${entry.name}.Schedules[${index}]: To is before From`);
    if (span + 1 > MAX_SCHEDULE_DAYS) {
      throw new ValidationError(`${entry.name}.Schedules[${index}]: spans ${span + 1} days; at most ${MAX_SCHEDULE_DAYS} are allowed`);
    }
    for (let offset = 0; offset <= span; offset += 1) {
      const day = addDays(schedule.From, offset);
      if (!schedule.Weekdays.includes(WEEKDAYS[new Date(`${day}T00:00:00Z`).getUTCDay()])) continue;
      if (schedule.OpeningHours)
        add({ Date: day, Time: DAY_TICKET_TIME, Capacity: schedule.Capacity, OpeningHours: schedule.OpeningHours });
      for (const slotTime of schedule.Times ?? []) {
        if (skippedBy(day, slotTime, timeZone))
          skipped.set(at(day, slotTime), { activityId: product.ActivityID, date: day, time: slotTime });
        else add({ Date: day, Time: slotTime, Capacity: schedule.Capacity });
      }
    }
  });
  (product.Timeslots ?? []).forEach((slot, index) => {
    if (slot.Time) checkTimeslotTime({ Date: slot.Date, Time: slot.Time }, timeZone, `Products[${entry.index}].Timeslots[${index}].Time`);
    add(oneOffRow(slot));
  });
  return { rows: [...rows.values()], skipped: [...skipped.values()] };
}

/** The distinct start times a START_TIME product's schedules and one-off timeslots name, ascending. */
export function startTimesOf(product: CatalogProduct): string[] {
  const times = new Set<string>([
    ...(product.Schedules ?? []).flatMap((schedule) => schedule.Times ?? []),
    ...(product.Timeslots ?? []).flatMap((slot) => (slot.Time ? [slot.Time] : [])),
  ]);
  return [...times].sort();
}

/**
 * Validates a parsed catalogue file completely before anything is written;
 * its dates and times are local to `timeZone`, the operator's.
 */
export function checkCatalog(input: unknown, timeZone: string): { catalog: CatalogFile; timeslots: SlotRow[][]; skipped: SkippedStart[] } {
  const catalog = validateCatalogFile(input);
  const products = catalog.Products;
  for (const [field, values] of [
    ['ProductID', products.map((p) => p.ProductID)],
    ['ActivityID', products.map((p) => p.ActivityID)],
    ['Name', products.map((p) => p.Name.trim().toLowerCase())],
  ] as const) {
    const duplicate = findDuplicate<unknown>([...values]);
    if (duplicate !== undefined) throw new ValidationError(`Two products share the ${field} '${duplicate}'`);
  }
  const expanded = products.map((product, index) => {
    const entry = entryName(index, product);
    checkQuestions(entry, product.Questions ?? []);
    checkUnits(index, product);
    checkSchedulesFit(index, product);
    return expandTimeslots({ name: entry, index }, product, timeZone);
  });
  return { catalog, timeslots: expanded.map(({ rows }) => rows), skipped: expanded.flatMap(({ skipped }) => skipped) };
}

/** A ProductID or name already used by another of the operator's activities would make resolve-product ambiguous. */
export function checkAgainstStored(catalog: CatalogFile, stored: Pick<ProductItem, 'ProductID' | 'ActivityID' | 'NameLower'>[]): void {
  catalog.Products.forEach((product, index) => {
    const clash = stored.find(
      (other) =>
        other.ActivityID !== product.ActivityID &&
        (other.ProductID === product.ProductID || other.NameLower === product.Name.trim().toLowerCase()),
    );
    if (clash) {
      const what = clash.ProductID === product.ProductID ? `ProductID ${product.ProductID}` : `Name '${product.Name}'`;
      throw new ValidationError(`${entryName(index, product)}: ${what} already belongs to activity ${clash.ActivityID}`);
    }
  });
}
