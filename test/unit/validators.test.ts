import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SchemaObject, ValidateFunction } from 'ajv';
import { operations } from '../../shared/api/operations';
import { PROJECT_ROOT, routes } from '../../shared/api/routes';
import { checkedBy, ruleOf, type GeneratedValidator } from '../../shared/core/validation';
import {
  compileAtRunTime,
  createAjv,
  errorMessagesOf,
  generatedFiles,
  inlineSchemaReads,
  SELF_WORDED_KEYWORDS,
  targets,
  withoutUnreadMessages,
  withSharedSubschemas,
} from '../../scripts/validators';

/**
 * The validators are generated ahead of time (scripts/validators.ts). These
 * tests hold them to the schemas: the files on disk are exactly what the
 * schemas generate now, and the generated code accepts and refuses exactly
 * what ajv compiling the same schemas at run time does, with the same words.
 */

test('every generated validator is what the schemas generate now (run `npm run build:validators` after changing a schema)', () => {
  const files = generatedFiles();
  expect(files.size).toBe(2 * (routes.length + 3));
  for (const [file, source] of files) {
    expect({ file, source: readFileSync(path.join(PROJECT_ROOT, file), 'utf8') }).toEqual({ file, source });
  }
});

test('no generated module carries a schema: what the code reads of one is written in place', () => {
  for (const [file, source] of generatedFiles())
    expect({ file, declaresSchema: /^const schema\d+ = /m.test(source) }).toEqual({ file, declaresSchema: false });
  const code = [
    'const schema0 = {"properties":{"a-b":{"type":["string","null"]}},"enum":[1,2]};',
    'const schema1 = {"type":"object"};',
    'f(schema0.properties["a-b"].type, schema1);',
    '',
  ].join('\n');
  expect(inlineSchemaReads(code)).toBe(['const schema1 = {"type":"object"};', 'f(["string","null"], schema1);', ''].join('\n'));
});

test("no generated module carries ajv's words where nothing reads them: a worded rule's, a missing or unknown property's", () => {
  const error = (number: number, schemaPath: string, keyword: string, message?: string) =>
    `const err${number} = {instancePath,schemaPath:"${schemaPath}",keyword:"${keyword}",params:{limit: 3}${message ? `,message:${message}` : ''}};`;
  const tooLong = '"must NOT have more than 3 characters"';
  const duplicate = '"must NOT have duplicate items (items ## "+j0+" and "+i1+" are identical)"';
  const pathErrors = (message?: string) => [
    error(0, '#/properties/a/maxLength', 'maxLength', message),
    error(1, '#/required', 'required', message),
  ];
  const bodyErrors = [
    error(0, '#/properties/a/maxLength', 'maxLength', tooLong),
    error(1, '#/properties/b/uniqueItems', 'uniqueItems', duplicate),
  ];
  const code = ['exports.path = validate0;', ...pathErrors(tooLong), 'exports.body = validate1;', ...bodyErrors].join('\n');
  // The path words `a` and the body does not: the same schema path keeps ajv's words in the body's code only.
  expect(withoutUnreadMessages(code, { path: { '#/properties/a': 'must be short' }, body: {} }).split('\n')).toEqual([
    'exports.path = validate0;',
    ...pathErrors(),
    'exports.body = validate1;',
    ...bodyErrors,
  ]);
  expect(() => withoutUnreadMessages('const err0 = {keyword:"type"};', {})).toThrow("An error of ajv's code is not written as expected");
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
  usageLimit: { Meter: 'api-calls', Filter: { Plan: 'pro' }, Period: 'MONTH', Amount: 150000, Thresholds: [50, 80], Enforcement: 'REFUSE' },
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
    const atRunTime = checkedBy(compileAtRunTime(schema), 'The request');
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

/**
 * What the wording of a refusal was when ajv's errors carried their schema
 * (verbose): the `errorMessage` of the subschema ajv names as the failed
 * keyword's parent, else ajv's own words.
 */
function verboseRule(validate: ValidateFunction, value: unknown): string | undefined {
  if (validate(value)) throw new Error(`${JSON.stringify(value)} is valid`);
  const [first] = validate.errors!;
  return (first.parentSchema as { errorMessage?: string }).errorMessage ?? first.message;
}

test.each(cases)('$name: every refusal is worded by the errorMessage of the subschema ajv names', ({ schema, generated, base }) => {
  const verbose = createAjv({ verbose: true }).compile(schema);
  const reached = new Set<string>();
  for (const value of corpus(schema, base)) {
    if (generated(value)) continue;
    const [first] = generated.errors!;
    // A missing or unknown property is worded by describe alone ('is required', 'is not allowed'), never by ajv's words or a schema's.
    if (SELF_WORDED_KEYWORDS.has(first.keyword)) continue;
    expect({ value, rule: ruleOf(first, generated.errorMessages) }).toEqual({ value, rule: verboseRule(verbose, value) });
    if (ruleOf(first, generated.errorMessages) !== first.message) reached.add(first.schemaPath);
  }
  // A schema with texts has some of them reached by the corpus, so the comparison above is not only of ajv's words.
  if (Object.keys(generated.errorMessages).length) expect(reached.size).toBeGreaterThan(0);
});

/** Every `errorMessage` anywhere in a value, by its JSON Pointer in ajv's schema-path form (`#/properties/Date`). */
function everyErrorMessage(value: unknown, at = '#'): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  const own = 'errorMessage' in value && typeof value.errorMessage === 'string' ? { [at]: value.errorMessage } : {};
  const segment = (key: string) => encodeURIComponent(key.replace(/~/g, '~0').replace(/\//g, '~1'));
  return Object.assign(own, ...Object.entries(value).map(([key, inner]) => everyErrorMessage(inner, `${at}/${segment(key)}`)));
}

/**
 * Every `errorMessage` of the schema as generated: a subschema used at several
 * places is a function of its own under `$defs`, whose errors ajv reports by
 * paths from its own root.
 */
function everyGeneratedErrorMessage(schema: SchemaObject): Record<string, string> {
  const { $defs, ...root } = withSharedSubschemas(schema).schema;
  return Object.assign(everyErrorMessage(root), ...Object.values(($defs ?? {}) as object).map((shared) => everyErrorMessage(shared)));
}

const texts = (messages: Record<string, string>) => [...new Set(Object.values(messages))].sort();

test.each(cases)('$name: the generated module words every rule its schema words, and only those', ({ schema, generated }) => {
  expect(generated.errorMessages).toEqual(everyGeneratedErrorMessage(schema));
  expect(texts(generated.errorMessages)).toEqual(texts(everyErrorMessage(schema)));
});

test('a subschema used at several places is checked by one function, and worded by paths from its own root', () => {
  const contact = { type: 'object', properties: { email: { type: 'string', maxLength: 5, errorMessage: 'must be a short email' } } };
  const schema: SchemaObject = {
    type: 'object',
    properties: { contact, items: { type: 'array', items: { type: 'object', properties: { contact } } } },
  };
  const generated = withSharedSubschemas(schema);
  expect(generated.schema.$defs).toEqual({ shared0: contact });
  expect(generated.schema.properties.contact).toEqual({ $ref: '#/$defs/shared0' });
  const validate = createAjv().compile(generated.schema);
  const messages = errorMessagesOf(schema, generated.shared);
  expect(messages).toEqual({ '#/properties/email': 'must be a short email' });
  for (const value of [{ contact: { email: 'too long' } }, { items: [{ contact: { email: 'too long' } }] }]) {
    expect(validate(value)).toBe(false);
    expect(ruleOf(validate.errors![0], messages)).toBe('must be a short email');
  }
  // A shared subschema's own paths meeting another rule's at the same path, worded otherwise, cannot be told apart.
  const clashing = { ...schema, properties: { ...schema.properties, email: { type: 'string', errorMessage: 'another rule' } } };
  expect(() => errorMessagesOf(clashing, withSharedSubschemas(clashing).shared)).toThrow('Two rules are worded at #/properties/email');
});

/** Keywords no request schema uses yet, and names that need escaping in a schema path: the texts are found there too. */
test('the wordings are found under every kind of subschema, by the paths ajv reports', () => {
  const text = (words: string) => ({ type: 'string', maxLength: 3, errorMessage: words });
  const schema: SchemaObject = {
    type: 'object',
    properties: {
      'a/b~c d': text('escaped name'),
      Pair: { type: 'array', items: [text('first'), text('second')], minItems: 2, additionalItems: false },
      Either: { anyOf: [{ type: 'integer' }, { type: 'boolean' }], errorMessage: 'either' },
      Not: { not: { type: 'integer' }, errorMessage: 'not a number' },
      Keys: {
        type: 'object',
        propertyNames: { pattern: '^[a-z]+$', errorMessage: 'lower-case key' },
        patternProperties: { '^[a-z]+$': text('patterned') },
      },
      Some: { allOf: [text('all of'), { type: 'string', minLength: 2, errorMessage: 'long enough' }] },
      Conditional: {
        type: 'object',
        if: { properties: { x: {} }, required: ['x'] },
        then: { properties: { y: text('then') } },
        else: { properties: { z: {} }, required: ['z'] },
      },
    },
    additionalProperties: false,
  };
  const validate = compileAtRunTime(schema);
  const verbose = createAjv({ verbose: true }).compile(schema);
  const refused = [
    { 'a/b~c d': 'long' },
    { Pair: ['long', 'ok'] },
    { Pair: ['ok', 'long'] },
    { Either: 'text' },
    { Not: 1 },
    { Keys: { Upper: 'x' } },
    { Keys: { lower: 'long' } },
    { Some: 'long' },
    { Some: 'x' },
    { Conditional: { x: 1, y: 'long' } },
    { Conditional: {} },
  ];
  const rules = refused.map((value) => {
    expect(validate(value)).toBe(false);
    expect(ruleOf(validate.errors![0], validate.errorMessages)).toBe(verboseRule(verbose, value));
    return ruleOf(validate.errors![0], validate.errorMessages);
  });
  expect(rules).toEqual([
    'escaped name',
    'first',
    'second',
    // ajv reports the first branch's error first, as verbose errors did.
    'must be integer',
    'not a number',
    'lower-case key',
    'patterned',
    'all of',
    'long enough',
    'then',
    "must have required property 'z'",
  ]);
});

test('a $ref is refused: errors inside a referenced schema could not be told apart without verbose errors', () => {
  const day = { type: 'string', format: 'date', errorMessage: 'must be a date' };
  expect(() => errorMessagesOf({ type: 'object', properties: { Day: { $ref: '#/definitions/day' } }, definitions: { day } })).toThrow(
    'A request schema uses $ref at #/properties/Day',
  );
});
