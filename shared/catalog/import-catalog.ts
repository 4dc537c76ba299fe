import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../db/client';
import { keys } from '../db/keys';
import { NotFoundError, ValidationError } from '../core/errors';
import { isoDate } from '../http/schema-parts';
import { compileValidator } from '../core/validation';
import { getOperator } from '../accounts/operators';
import { addDays, daysBetween } from '../core/calendar';
import { queryProductIdentities } from './repository';
import { ACTIVITY_ID_PATTERN, TIME_PATTERN, type ProductItem, type Question } from './model';

/** The catalogue file an operator imports: products with their questions and timeslots. */
export interface CatalogFile {
  Products: CatalogueProduct[];
}

export interface CatalogueProduct {
  ProductID: number;
  ActivityID: string;
  Name: string;
  Description?: string;
  Visible?: boolean;
  DurationMinutes: number;
  MaxParticipantsPerBooking: number;
  PricePerParticipant: { Amount: number; Currency: string };
  Questions?: Question[];
  /** Recurring timeslots: every listed weekday from From to To, at each of Times. */
  Schedules?: { From: string; To: string; Weekdays: Weekday[]; Times: string[]; Capacity: number }[];
  /** One-off timeslots. */
  Timeslots?: { Date: string; Time: string; Capacity: number }[];
}

const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;
type Weekday = (typeof WEEKDAYS)[number];

/** A schedule may span at most this many days; longer ones are split or re-imported later. */
const MAX_SCHEDULE_DAYS = 366;
const MAX_CAPACITY = 10_000;
const WRITE_CONCURRENCY = 16;

const time = { type: 'string', pattern: TIME_PATTERN, errorMessage: 'must be a time in HH:MM (24-hour) format' };
const capacity = { type: 'integer', minimum: 1, maximum: MAX_CAPACITY, errorMessage: `must be an integer from 1 to ${MAX_CAPACITY}` };

const questionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['QuestionID', 'Text', 'Type', 'Required'],
  properties: {
    QuestionID: { type: 'string', pattern: '^q_[A-Za-z0-9]{1,64}$', errorMessage: "must be 'q_' followed by letters or digits" },
    Text: { type: 'string', minLength: 1, maxLength: 1000 },
    Type: { enum: ['TEXT', 'YES_NO', 'SINGLE_CHOICE', 'DATE', 'FILE_UPLOAD'] },
    Required: { type: 'boolean' },
    Options: { type: 'array', minItems: 2, maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 200 } },
    AcceptedFileTypes: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[a-z]+/[a-z0-9.+*-]+$' } },
    MaxFileSizeBytes: { type: 'integer', minimum: 1 },
  },
};

const catalogueSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Products'],
  properties: {
    Products: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['ProductID', 'ActivityID', 'Name', 'DurationMinutes', 'MaxParticipantsPerBooking', 'PricePerParticipant'],
        properties: {
          ProductID: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, errorMessage: 'must be a positive integer' },
          ActivityID: { type: 'string', pattern: ACTIVITY_ID_PATTERN, errorMessage: "must be 's_' followed by 1 to 64 letters or digits" },
          Name: { type: 'string', minLength: 1, maxLength: 200 },
          Description: { type: 'string', maxLength: 5000 },
          Visible: { type: 'boolean' },
          DurationMinutes: { type: 'integer', minimum: 1, maximum: 10_080 },
          MaxParticipantsPerBooking: { type: 'integer', minimum: 1, maximum: MAX_CAPACITY },
          PricePerParticipant: {
            type: 'object',
            additionalProperties: false,
            required: ['Amount', 'Currency'],
            properties: {
              Amount: { type: 'integer', minimum: 0, errorMessage: 'must be a whole number of minor units (cents)' },
              Currency: { type: 'string', pattern: '^[A-Z]{3}$', errorMessage: 'must be an ISO 4217 code such as EUR' },
            },
          },
          Questions: { type: 'array', maxItems: 100, items: questionSchema },
          Schedules: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['From', 'To', 'Weekdays', 'Times', 'Capacity'],
              properties: {
                From: isoDate,
                To: isoDate,
                Weekdays: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...WEEKDAYS] } },
                Times: { type: 'array', minItems: 1, uniqueItems: true, items: time },
                Capacity: capacity,
              },
            },
          },
          Timeslots: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['Date', 'Time', 'Capacity'],
              properties: { Date: isoDate, Time: time, Capacity: capacity },
            },
          },
        },
      },
    },
  },
};

const validateShape = compileValidator<CatalogFile>(catalogueSchema, 'The catalogue');

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

interface SlotRow {
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
  const catalogue = validateShape(input);
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
function checkAgainstStored(catalogue: CatalogFile, stored: Pick<ProductItem, 'ProductID' | 'ActivityID' | 'NameLower'>[]): void {
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

async function inBatches<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < items.length; start += WRITE_CONCURRENCY) {
    await Promise.all(items.slice(start, start + WRITE_CONCURRENCY).map(work));
  }
}

export interface ImportSummary {
  products: number;
  timeslots: number;
}

/**
 * Imports a catalogue for an operator. Running it twice changes nothing the
 * second time: products are replaced whole, timeslots get the file's
 * capacity and keep the places already booked on them.
 */
export async function importCatalog(operatorId: string, input: unknown): Promise<ImportSummary> {
  const { catalogue, timeslots } = checkCatalogue(input);
  if (!(await getOperator(operatorId))) throw new NotFoundError(`Operator '${operatorId}' does not exist`);
  checkAgainstStored(catalogue, await queryProductIdentities(operatorId));
  await inBatches(catalogue.Products, (product) => {
    const item: ProductItem = {
      ProductID: product.ProductID,
      ActivityID: product.ActivityID,
      Name: product.Name.trim(),
      NameLower: product.Name.trim().toLowerCase(),
      Description: product.Description ?? '',
      Visible: product.Visible ?? true,
      DurationMinutes: product.DurationMinutes,
      MaxParticipantsPerBooking: product.MaxParticipantsPerBooking,
      PricePerParticipant: product.PricePerParticipant,
      Questions: product.Questions ?? [],
    };
    return documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.product(operatorId, product.ActivityID),
          ...keys.productIdIndex(operatorId, product.ProductID),
          Entity: 'Product',
          ...item,
        },
      }),
    );
  });
  const slotWrites = catalogue.Products.flatMap((product, index) => timeslots[index].map((slot) => ({ product, slot })));
  await inBatches(slotWrites, ({ product, slot }) =>
    documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.timeslot(operatorId, product.ActivityID, slot.Date, slot.Time),
        // Vacancies is what a booking's condition checks; it follows a capacity change and keeps what is booked.
        UpdateExpression:
          'SET Entity = :entity, #date = :date, #time = :time, #capacity = :capacity, ' +
          'Booked = if_not_exists(Booked, :zero), Vacancies = :capacity - if_not_exists(Booked, :zero)',
        ExpressionAttributeNames: { '#date': 'Date', '#time': 'Time', '#capacity': 'Capacity' },
        ExpressionAttributeValues: { ':entity': 'Timeslot', ':date': slot.Date, ':time': slot.Time, ':capacity': slot.Capacity, ':zero': 0 },
      }),
    ),
  );
  return { products: catalogue.Products.length, timeslots: slotWrites.length };
}
