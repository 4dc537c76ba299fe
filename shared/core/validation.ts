import type { ErrorObject } from 'ajv';
import { everyViolation, ValidationError, type FieldViolation } from './errors';

/**
 * Validation with the validators generated ahead of time from the schemas
 * (scripts/validators.ts writes them with ajv's standalone code), so no
 * function compiles a schema when it starts. Schemas may carry an
 * `errorMessage` annotation: the text that follows the field's name when the
 * field breaks any of that schema's rules ("StartDate must be a date in
 * YYYY-MM-DD format").
 */

/**
 * The `errorMessage` of every subschema that has one, by where ajv's errors
 * locate that subschema: an error's `schemaPath` without its keyword
 * (`#/properties/Date/pattern` → `#/properties/Date`).
 */
export type ErrorMessages = Readonly<Record<string, string>>;

/**
 * A generated validator: true when the value is valid, else false with its
 * errors in `errors` (every one the schema finds), and the wording of its
 * schemas' rules beside it (ajv's errors carry no schema, which keeps the
 * generated code small).
 */
export interface GeneratedValidator {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
  errorMessages: ErrorMessages;
}

/** Checks a value, with the faults found in it before (such as numbers not read as written), and returns it typed. */
export type Validator<T> = (value: unknown, earlier?: readonly FieldViolation[]) => T;

/**
 * How a nested field is named: `Entries[3].Dimensions.Region` in a body, and
 * `filter[Region]` in a query, as OpenAPI's deepObject style sends it.
 */
export type FieldNaming = 'dotted' | 'deepObject';

/** JSON Pointer segments of the path, the offending property itself included (a key refused by propertyNames, too). */
function fieldSegments(error: ErrorObject): string[] {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(error.params.missingProperty);
  if (error.keyword === 'additionalProperties') segments.push(error.params.additionalProperty);
  if (error.propertyName !== undefined) segments.push(error.propertyName);
  return segments;
}

function fieldName(error: ErrorObject, naming: FieldNaming): string {
  return fieldSegments(error).reduce((name, segment) => {
    if (!name) return segment;
    return /^\d+$/.test(segment) || naming === 'deepObject' ? `${name}[${segment}]` : `${name}.${segment}`;
  }, '');
}

/**
 * The words of the rule an error reports: the `errorMessage` of the
 * subschema whose keyword failed (the error's `schemaPath` without its last
 * segment, the keyword), else ajv's own.
 */
export function ruleOf(error: ErrorObject, errorMessages: ErrorMessages): string | undefined {
  return errorMessages[error.schemaPath.slice(0, error.schemaPath.lastIndexOf('/'))] ?? error.message;
}

/**
 * The rule a value broke, worded to follow its field's name (by the
 * `errorMessage` of the subschema that refused it, else ajv's words); for
 * the whole value, worded to follow `whole`.
 */
export function describe(error: ErrorObject, errorMessages: ErrorMessages, whole: string, naming: FieldNaming = 'dotted'): ValidationError {
  const field = fieldName(error, naming) || undefined;
  switch (error.keyword) {
    case 'required':
      return new ValidationError('is required', { field });
    case 'additionalProperties':
      return new ValidationError('is not allowed', { field });
    default: {
      if (!field && error.keyword === 'type') return new ValidationError(`${whole} must be a JSON ${error.params.type}`);
      const rule = ruleOf(error, errorMessages);
      return field ? new ValidationError(rule ?? 'is invalid', { field }) : new ValidationError(`${whole} ${rule}`);
    }
  }
}

/**
 * A generated validator as a function that throws a ValidationError naming
 * every offending field (each once, with the first rule it broke, after the
 * `earlier` faults), or for the value as a whole, `whole` ("The request
 * body"), and otherwise returns the value typed.
 */
export function checkedBy<T>(validate: GeneratedValidator, whole: string, naming: FieldNaming = 'dotted'): Validator<T> {
  return (value, earlier = []): T => {
    const valid = validate(value);
    if (valid && !earlier.length) return value as T;
    const faults = valid ? [] : (validate.errors ?? []).map((error) => describe(error, validate.errorMessages, whole, naming));
    if (!valid && !faults.length) throw new ValidationError(`${whole} is invalid`);
    // A value wrong as a whole (not an object) has no fields to list.
    const ofWhole = faults.find((fault) => fault.field === undefined);
    if (ofWhole) throw ofWhole;
    const violations = new Map<string, FieldViolation>();
    for (const violation of [...earlier, ...faults.map(({ field, message }) => ({ field: field as string, message }))]) {
      if (!violations.has(violation.field)) violations.set(violation.field, violation);
    }
    throw everyViolation([...violations.values()]);
  };
}
