import Ajv, { type ErrorObject, type SchemaObject } from 'ajv';
import addFormats from 'ajv-formats';
import { isSupportedDay } from './calendar';
import { BadRequestError, ValidationError } from '../http/errors';

/**
 * One Ajv instance for the process. Schemas may carry an `errorMessage`
 * annotation: the text that follows the field's name when the field breaks
 * any of that schema's rules ("StartDate must be a date in YYYY-MM-DD format").
 *
 * The schemas are constants of the code, so checking them against the JSON
 * Schema meta-schema on every cold start (about 25 ms) buys nothing: strict
 * mode still rejects unknown keywords at compile, and the tests load every handler.
 */
const ajv = new Ajv({ allErrors: false, verbose: true, strict: true, validateSchema: false, meta: false });
addFormats(ajv, ['date', 'email']);
ajv.addFormat('supported-day', { type: 'string', validate: isSupportedDay });
ajv.addVocabulary(['errorMessage']);

export type Validator<T> = (value: unknown) => T;

function fieldName(error: ErrorObject): string {
  const segments = error.instancePath.split('/').slice(1);
  if (error.keyword === 'required') segments.push(error.params.missingProperty);
  if (error.keyword === 'additionalProperties') segments.push(error.params.additionalProperty);
  return segments.reduce((name, segment) => (/^\d+$/.test(segment) ? `${name}[${segment}]` : name ? `${name}.${segment}` : segment), '');
}

/** How a validated value is named in messages: its fields ("Field 'Customer.Email'") and the whole of it ("The request body"). */
export interface Subject {
  field: string;
  whole: string;
}

function describe(error: ErrorObject, subject: Subject): string {
  const field = fieldName(error);
  switch (error.keyword) {
    case 'required':
      return `${subject.field} '${field}' is required`;
    case 'additionalProperties':
      return `${subject.field} '${field}' is not allowed`;
    default: {
      if (!field && error.keyword === 'type') return `${subject.whole} must be a JSON ${error.params.type}`;
      const custom = (error.parentSchema as { errorMessage?: string } | undefined)?.errorMessage;
      const what = field ? `${subject.field} '${field}'` : subject.whole;
      return `${what} ${custom ?? error.message}`;
    }
  }
}

/**
 * Compiles a schema once; the returned function throws `ErrorClass` with a
 * detail that names the offending field, and otherwise returns the value typed.
 */
export function compileValidator<T>(
  schema: SchemaObject,
  subject: Subject,
  ErrorClass: typeof BadRequestError | typeof ValidationError = ValidationError,
): Validator<T> {
  const validate = ajv.compile(schema);
  return (value: unknown): T => {
    if (validate(value)) return value as T;
    const [first] = validate.errors ?? [];
    throw new ErrorClass(first ? describe(first, subject) : `${subject.whole} is invalid`);
  };
}
