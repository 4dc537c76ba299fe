import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SchemaObject } from 'ajv';
import { operations } from '../../shared/api/operations';
import { PROJECT_ROOT, routes } from '../../shared/api/routes';
import { checkedBy, type GeneratedValidator } from '../../shared/core/validation';
import { createAjv, generatedFiles, targets } from '../../scripts/validators';

/**
 * The validators are generated ahead of time (scripts/validators.ts). These
 * tests hold them to the schemas: the files on disk are exactly what the
 * schemas generate now, and the generated code accepts and refuses exactly
 * what ajv compiling the same schemas at run time does, with the same words.
 */

test('every generated validator is what the schemas generate now (run `npm run build:validators` after changing a schema)', () => {
  const files = generatedFiles();
  expect(files.size).toBe(2 * (routes.length + 2));
  for (const [file, source] of files) {
    expect({ file, source: readFileSync(path.join(PROJECT_ROOT, file), 'utf8') }).toEqual({ file, source });
  }
});

/** Strings worth trying in any string field: formats, patterns and limits of this API, and hostile names. */
const STRINGS = [
  's_kayak01',
  '2026-07-01',
  '2026-02-30',
  '10:00',
  '24:00',
  '1001',
  '0',
  'K5DDMJMXFQ',
  'k5ddmjmxfq',
  'ota',
  'pos',
  'day',
  'Europe/Lisbon',
  'ana@example.com',
  '+351912345678',
  'api-calls',
  'https://partner.example.com/hooks',
  '',
  ' ',
  'x'.repeat(300),
  '__proto__',
  'constructor',
  'line\nbreak',
];
const OTHERS: unknown[] = [null, 0, -1, 1.5, 1e12, 1e13, 2, 100, 10_001, true, [], {}, [{}], { a: 1 }];
const VALUES = [...STRINGS, ...OTHERS];

type Json = Record<string, unknown>;

/** A value every rule of the (object) schema accepts, built field by field from the candidates, or undefined. */
function sampleOf(schema: SchemaObject): Json {
  const ajv = createAjv();
  const sample: Json = {};
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, SchemaObject>)) {
    const accepts = ajv.compile(property);
    const value = VALUES.find((candidate) => accepts(candidate));
    if (value !== undefined) sample[name] = value;
  }
  return sample;
}

/** The base value and every variation of it: each field removed and set to each candidate, at the top and one level down. */
function corpus(schema: SchemaObject, base: Json): unknown[] {
  const values: unknown[] = [base, {}, null, 'text', 7, [], [base], { ...base, Unknown: 1 }];
  const vary = (object: Json, properties: Record<string, SchemaObject>, wrap: (inner: Json) => unknown) => {
    for (const name of Object.keys(properties)) {
      const { [name]: _, ...without } = object;
      values.push(wrap(without));
      for (const value of VALUES) values.push(wrap({ ...object, [name]: value }));
    }
  };
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject>;
  vary(base, properties, (inner) => inner);
  for (const [name, property] of Object.entries(properties)) {
    const nested = property.type === 'array' ? property.items : property;
    const inner = base[name];
    const innerObject = (Array.isArray(inner) ? inner[0] : inner) as Json | undefined;
    if (nested?.type !== 'object' || !innerObject || typeof innerObject !== 'object') continue;
    vary(innerObject, nested.properties ?? {}, (changed) => ({ ...base, [name]: Array.isArray(inner) ? [changed] : changed }));
  }
  return values;
}

const tomorrow = '2026-07-01';
const product = {
  ProductID: 1001,
  ActivityID: 's_kayak01',
  Name: 'Sunset Kayak Tour',
  DurationMinutes: 120,
  MaxParticipantsPerBooking: 6,
  PricePerParticipant: { Amount: 4500, Currency: 'EUR' },
  Questions: [{ QuestionID: 'q_swim', Text: 'Can you swim?', Type: 'YES_NO', Required: true }],
  Schedules: [{ From: tomorrow, To: '2026-07-31', Weekdays: ['MON'], Times: ['10:00'], Capacity: 12 }],
  Timeslots: [{ Date: tomorrow, Time: '12:00', Capacity: 6 }],
};
const booking = {
  ActivityID: 's_kayak01',
  Date: tomorrow,
  Time: '10:00',
  Participants: 2,
  Customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: '+351912345678' },
  Answers: [{ QuestionID: 'q_swim', Value: 'YES' }],
};

/** A valid value of each schema, where the candidates cannot build one field by field. */
const BASES: Record<string, Json> = {
  catalogFile: { Products: [product] },
  operatorBooking: { Channel: 'pos', ...booking },
};

interface Case {
  name: string;
  schema: SchemaObject;
  generated: GeneratedValidator;
  base: Json;
}

const cases: Case[] = targets().flatMap((target) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module the generator names
  const generated = require(path.join(PROJECT_ROOT, target.module));
  const exported = target.route ? generated.validators : generated;
  const route = routes.find((candidate) => candidate.id === target.route?.id);
  return Object.entries(target.schemas).map(([part, schema]) => ({
    name: `${target.route?.id ?? 'domain'} ${part}`,
    schema,
    generated: exported[part] as GeneratedValidator,
    base:
      BASES[part] ??
      ((part === 'body' ? route && operations[route.id].docs.requestExample : undefined) as Json | undefined) ??
      sampleOf(schema),
  }));
});

/** What a validator makes of a value: accepted, or the field and words of the refusal. */
function outcome(validate: (value: unknown) => unknown, value: unknown) {
  try {
    validate(value);
    return 'accepted';
  } catch (error) {
    const { field, message } = error as { field?: string; message: string };
    return { field, message };
  }
}

test.each(cases)(
  '$name: the generated validator decides and words every refusal as the run-time compiled one',
  ({ schema, generated, base }) => {
    const atRunTime = checkedBy(createAjv().compile(schema), 'The request');
    const ahead = checkedBy(generated, 'The request');
    const values = corpus(schema, base);
    const outcomes = values.map((value) => [outcome(ahead, value), outcome(atRunTime, value)]);
    for (const [i, [generatedOutcome, compiledOutcome]] of outcomes.entries()) {
      expect({ value: values[i], outcome: generatedOutcome }).toEqual({ value: values[i], outcome: compiledOutcome });
    }
    // The corpus reaches both sides of the rules: the base is accepted, and most variations are refused.
    expect(outcome(ahead, base)).toBe('accepted');
    expect(outcomes.filter(([generatedOutcome]) => generatedOutcome !== 'accepted').length).toBeGreaterThan(values.length / 4);
  },
);
