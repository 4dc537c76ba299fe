import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from '../../shared/http/openapi';

/**
 * Validates values against the schemas of an OpenAPI 3.1 document with
 * JSON Schema 2020-12 (OpenAPI 3.1's dialect). Schemas are addressed by
 * their JSON pointer in the document, so their `$ref`s resolve as in it.
 */
export function documentValidator(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv, ['date', 'date-time', 'email']);
  // The document's own fields are not JSON Schema keywords: declared as annotations, strict mode still checks every schema in it.
  ajv.addVocabulary(Object.keys(document));
  ajv.addSchema(document, 'openapi.json');
  const compiled = new Map<string, ValidateFunction>();

  const pointer = (segments: (string | number)[]) =>
    segments.map((segment) => encodeURIComponent(String(segment).replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

  /** The value's errors against the schema at `segments` (e.g. ['components', 'schemas', 'Booking']); [] when it is valid. */
  return function errorsOf(segments: (string | number)[], value: unknown): string[] {
    const id = `openapi.json#/${pointer(segments)}`;
    let validate = compiled.get(id);
    if (!validate) {
      validate = ajv.getSchema(id);
      if (!validate) throw new Error(`No schema at ${segments.join(' > ')}`);
      compiled.set(id, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message}`);
  };
}

export type DocumentValidator = ReturnType<typeof documentValidator>;

/**
 * Where a route's documented response for `status` is, following a `$ref` to a shared response; `empty` for a
 * response documented without a body (204); undefined when not documented.
 */
export function documentedResponse(
  document: OpenApiDocument,
  route: { path: string; method: string },
  status: number,
): { segments: (string | number)[]; contentType: string } | { empty: true } | undefined {
  let segments: (string | number)[] = ['paths', route.path, route.method.toLowerCase(), 'responses', String(status)];
  let response = document.paths[route.path]?.[route.method.toLowerCase()]?.responses?.[status];
  if (!response) return undefined;
  if (response.$ref) {
    segments = (response.$ref as string).replace(/^#\//, '').split('/');
    response = segments.reduce((node: any, segment) => node[segment], document);
  }
  if (!response.content) return { empty: true };
  const [contentType] = Object.keys(response.content);
  return { segments: [...segments, 'content', contentType, 'schema'], contentType };
}
