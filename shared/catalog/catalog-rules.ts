import { addDays, daysBetween } from '../core/calendar';
import { ValidationError } from '../core/errors';
import { checkedBy } from '../core/validation';
import { MAX_SCHEDULE_DAYS, WEEKDAYS, type CatalogFile, type CatalogueProduct } from './catalog-file';
import { catalogueFile } from './catalogue-file.generated';
import type { ProductItem } from './model';
import type { Question } from './schemas';

/** The rules of a catalogue file that its schema cannot state, checked in full before anything is written. */

const validateCatalogFile = checkedBy<CatalogFile>(catalogueFile, 'The catalogue');

const entryName = (index: number, product: CatalogueProduct) => `Products[${index}] (${product.ActivityID})`;

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

export interface SlotRow {
  Date: string;
  Time: string;
  Capacity: number;
}

/** Expands schedules and one-off slots into one row per date and time; a later entry overrides an earlier one. */
export function expandTimeslots(entry: string, product: CatalogueProduct): SlotRow[] {
  const rows = new Map<string, SlotRow>();
  (product.Schedules ?? []).forEach((schedule, index) => {
    const span = daysBetween(schedule.From, schedule.To);
    if (span < 0) throw new ValidationError(`${entry}.Schedules[${index}]: To is before From`);
    if (span + 1 > MAX_SCHEDULE_DAYS) {
      throw new ValidationError(`${entry}.Schedules[${index}]: spans ${span + 1} days; at most ${MAX_SCHEDULE_DAYS} are allowed`);
    }
    for (let offset = 0; offset <= span; offset += 1) {
      const day = addDays(schedule.From, offset);
      if (!schedule.Weekdays.includes(WEEKDAYS[new Date(`${day}T00:00:00Z`).getUTCDay()])) continue;
      for (const slotTime of schedule.Times) rows.set(`${day} ${slotTime}`, { Date: day, Time: slotTime, Capacity: schedule.Capacity });
    }
  });
  for (const slot of product.Timeslots ?? []) rows.set(`${slot.Date} ${slot.Time}`, slot);
  return [...rows.values()];
}

/** Validates a parsed catalogue file completely before anything is written. */
export function checkCatalogue(input: unknown): { catalogue: CatalogFile; timeslots: SlotRow[][] } {
  const catalogue = validateCatalogFile(input);
  const products = catalogue.Products;
  for (const [field, values] of [
    ['ProductID', products.map((p) => p.ProductID)],
    ['ActivityID', products.map((p) => p.ActivityID)],
    ['Name', products.map((p) => p.Name.trim().toLowerCase())],
  ] as const) {
    const duplicate = findDuplicate<unknown>([...values]);
    if (duplicate !== undefined) throw new ValidationError(`Two products share the ${field} '${duplicate}'`);
  }
  const timeslots = products.map((product, index) => {
    const entry = entryName(index, product);
    checkQuestions(entry, product.Questions ?? []);
    return expandTimeslots(entry, product);
  });
  return { catalogue, timeslots };
}

/** A ProductID or name already used by another of the operator's activities would make resolve-product ambiguous. */
export function checkAgainstStored(catalogue: CatalogFile, stored: Pick<ProductItem, 'ProductID' | 'ActivityID' | 'NameLower'>[]): void {
  catalogue.Products.forEach((product, index) => {
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
