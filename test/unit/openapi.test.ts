import type { SchemaObject } from 'ajv';
import { loadHandler } from '../../functions/load-handler';
import { openApiDocument } from '../../shared/http/openapi';
import { octoDocument } from '../../shared/octo/openapi';
import { operations } from '../../shared/api/operations';
import { ANY_KEY, routes, type Route } from '../../shared/api/routes';
import { PROBLEM_CONTENT_TYPE } from '../../shared/api/problem-types';
import { checkedBy } from '../../shared/core/validation';
import { documentValidator } from '../support/openapi';
import { routeValidators } from '../support/validators';

const document = openApiDocument({ octo: octoDocument });
const errorsOf = documentValidator(document);
const operationOf = (route: Route) => document.paths[route.path]?.[route.method.toLowerCase()];

/**
 * Every field of a schema as a dotted path (`Customer.Email`, `Answers[].Value`),
 * marked `!` when required, following `$ref`s into the document's components.
 */
function fieldPaths(schema: SchemaObject, prefix = ''): string[] {
  if (schema.$ref) return fieldPaths(document.components.schemas[schema.$ref.split('/').pop()], prefix);
  if (schema.items) return fieldPaths(schema.items, `${prefix}[]`);
  const required = new Set<string>(schema.required ?? []);
  return Object.entries((schema.properties ?? {}) as Record<string, SchemaObject>).flatMap(([name, property]) => {
    const field = prefix ? `${prefix}.${name}` : name;
    return [`${field}${required.has(name) ? '!' : ''}`, ...fieldPaths(property, field)];
  });
}

describe('the document and the route table', () => {
  test('every route is an operation of the document, and every operation a route', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(routes.map((route) => `${route.method} ${route.path}`).sort());
  });

  test.each(routes)('$id: operationId, required scope and Bearer security', (route) => {
    const operation = operationOf(route);
    expect(operation.operationId).toBe(route.id);
    if (route.scope === ANY_KEY) {
      expect(operation['x-required-scope']).toBeUndefined();
      expect(operation.description).toContain('Any valid API key may call it.');
    } else {
      expect(operation['x-required-scope']).toBe(route.scope);
      expect(operation.description).toContain(`scope \`${route.scope}\``);
    }
    const [requirement] = operation.security;
    expect(document.components.securitySchemes[Object.keys(requirement)[0]]).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  test('the document is OpenAPI 3.1', () => {
    expect(document.openapi).toBe('3.1.0');
  });
});

describe('request schemas are the handlers’ own', () => {
  test.each(routes)('$id: the function validates with the validators generated for its own route', (route) => {
    expect(loadHandler<{ route: string }>(route.entry).route).toBe(route.id);
  });

  test.each(routes)('$id: parameters are exactly the path and query properties of the route schemas', (route) => {
    const schemas = operations[route.id].request ?? {};
    const parameters = operationOf(route).parameters.filter((parameter: { $ref?: string }) => !parameter.$ref);
    for (const location of ['path', 'query'] as const) {
      const schema = schemas[location];
      const documented = parameters.filter((parameter: { in: string }) => parameter.in === location);
      expect(documented.map((parameter: { name: string }) => parameter.name).sort()).toEqual(Object.keys(schema?.properties ?? {}).sort());
      for (const parameter of documented) {
        const validated = (schema!.properties as Record<string, Record<string, unknown>>)[parameter.name];
        // The constraints a client must meet are the ones the handler enforces.
        for (const keyword of ['type', 'pattern', 'enum', 'minLength', 'maxLength'])
          expect(parameter.schema[keyword]).toEqual(validated[keyword]);
        expect(parameter.required).toBe(location === 'path' || (schema!.required ?? []).includes(parameter.name));
        // An object travels as name[key]=value parameters, which the handler gathers: the document says so.
        if (validated.type === 'object') expect(parameter).toMatchObject({ style: 'deepObject', explode: true });
        else expect(parameter.style).toBeUndefined();
      }
    }
  });

  test.each(routes)('$id: a request body is documented exactly when the handler takes one, with the same fields', (route) => {
    const schemas = operations[route.id].request ?? {};
    const body = operationOf(route).requestBody?.content['application/json'];
    expect(Boolean(body)).toBe(Boolean(schemas.body));
    if (!schemas.body) return;
    expect(fieldPaths(body.schema).sort()).toEqual(fieldPaths(schemas.body).sort());
    // The documented example is a request the handler accepts, and a body the document describes.
    const validate = checkedBy(routeValidators(route).body!, 'The request body');
    expect(() => validate(body.example)).not.toThrow();
    expect(
      errorsOf(['paths', route.path, route.method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema'], body.example),
    ).toEqual([]);
    if (route.face === 'octo') {
      // OCTo: fields of capabilities the service lacks are ignored, as OCTo says, so an undocumented field passes.
      expect(() => validate({ ...body.example, Undocumented: 1 })).not.toThrow();
      return;
    }
    // A field the document does not list is one the handler refuses.
    expect(() => validate({ ...body.example, Undocumented: 1 })).toThrow(
      expect.objectContaining({ field: 'Undocumented', message: 'is not allowed' }),
    );
  });

  test('the usage summary documents groupBy and filter[Key] with the rules the handler enforces', () => {
    const parameters = operationOf(routes.find((route) => route.id === 'get-usage-summary')!).parameters;
    const named = (name: string) => parameters.find((parameter: { name: string }) => parameter.name === name);
    expect(named('groupBy')).toMatchObject({ in: 'query', required: false, schema: { type: 'string', pattern: expect.any(String) } });
    expect(new RegExp(named('groupBy').schema.pattern).test('Region,Plan')).toBe(true);
    expect(new RegExp(named('groupBy').schema.pattern).test('Region,Plan,Tier')).toBe(false);
    expect(named('filter')).toMatchObject({
      in: 'query',
      style: 'deepObject',
      explode: true,
      schema: {
        type: 'object',
        maxProperties: 5,
        propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]{0,39}$' },
        additionalProperties: { type: 'string', minLength: 1, maxLength: 100 },
      },
    });
    expect(named('filter').description).toMatch(/filter\[Key\]=value/);
  });

  test('the validation annotations are translated, not published', () => {
    // Examples are values, and OCTo's error body has a field named errorMessage: only schema keywords are looked at.
    const keywords: string[] = [];
    const walk = (node: unknown, key = ''): void => {
      if (!node || typeof node !== 'object' || key === 'example' || key === 'examples') return;
      for (const [name, value] of Object.entries(node)) {
        if (name === 'errorMessage' && typeof value === 'string') keywords.push(name);
        walk(value, name);
      }
    };
    walk(document);
    expect(keywords).toEqual([]);
    const text = JSON.stringify(document);
    expect(text).not.toContain('supported-day');
    const startDate = operationOf(routes.find((route) => route.id === 'list-available-dates')!).parameters.find(
      (parameter: { name: string }) => parameter.name === 'StartDate',
    );
    expect(startDate.schema).toMatchObject({ type: 'string', format: 'date' });
    expect(startDate.description).toMatch(/^Must be a real calendar date in YYYY-MM-DD format/);
  });
});

describe('responses', () => {
  test.each(routes.filter((route) => route.face === 'octo'))(
    "$id: documents its 200 as bare OCTo JSON, client faults as OCTo's 400, the gateway's refusals as problems with OCTo's fields",
    (route) => {
      const responses = operationOf(route).responses;
      const statuses = Object.keys(responses).map(Number).sort();
      expect(statuses).toEqual([200, 400, 401, 403, ...(operations[route.id].request?.body ? [413] : []), 429, 500, 504]);
      expect(Object.keys(responses[200].content)).toEqual(['application/json']);
      expect(responses[200].content['application/json'].schema.properties?.data).toBeUndefined();
      const shared = (status: number) => document.components.responses[responses[status].$ref.split('/').pop()];
      expect(shared(400).content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OctoError' });
      for (const status of [401, 403, 429, 504, ...(operations[route.id].request?.body ? [413] : [])]) {
        expect(shared(status).content[PROBLEM_CONTENT_TYPE].schema).toEqual({ $ref: '#/components/schemas/GatewayError' });
        expect(shared(status).content[PROBLEM_CONTENT_TYPE].example.status).toBe(status);
      }
      expect(Object.keys(shared(500).content).sort()).toEqual(['application/json', PROBLEM_CONTENT_TYPE]);
    },
  );

  test.each(routes.filter((route) => route.face !== 'octo'))(
    '$id: documents its success as JSON and every error status as problem+json',
    (route) => {
      const schemas = operations[route.id].request ?? {};
      const responses = operationOf(route).responses;
      const statuses = Object.keys(responses).map(Number);
      const success = statuses.filter((status) => status < 300);
      // 201 only for a POST that creates; actions on a resource (a path ending in confirm, cancel, void), or on those its body names (an erasure), answer 200; DELETE answers 204 with no body.
      const action = /\/(confirm|cancel|void|erasure)$/.test(route.path);
      const expected = route.method === 'DELETE' ? 204 : route.method === 'POST' && schemas.body && !action ? 201 : 200;
      expect(success).toEqual([expected]);
      if (expected === 204) expect(responses[204].content).toBeUndefined();
      else expect(Object.keys(responses[success[0]].content)).toEqual(['application/json']);
      // The gateway may refuse any call; which other statuses a route answers is held to real responses by the contract test.
      for (const status of [401, 429, 500, 504]) expect(statuses).toContain(status);
      // 403 is the refusal of a key without the route's scope: a route any key may call documents none.
      expect(statuses.includes(403)).toBe(route.scope !== ANY_KEY);
      for (const status of statuses.filter((s) => s >= 400)) {
        const shared = document.components.responses[responses[status].$ref.split('/').pop()];
        expect(Object.keys(shared.content)).toEqual([PROBLEM_CONTENT_TYPE]);
        expect(shared.content[PROBLEM_CONTENT_TYPE].schema).toEqual({ $ref: '#/components/schemas/Problem' });
        for (const { value } of Object.values(shared.content[PROBLEM_CONTENT_TYPE].examples) as { value: { status: number } }[]) {
          expect(value.status).toBe(status);
        }
      }
    },
  );

  test('every example is valid against its schema', () => {
    const checked: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item as Record<string, any>)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
          for (const [contentType, media] of Object.entries((response.content ?? {}) as Record<string, any>)) {
            expect(errorsOf(['paths', path, method, 'responses', status, 'content', contentType, 'schema'], media.example)).toEqual([]);
            checked.push(`${method} ${path} ${status}`);
          }
        }
      }
    }
    for (const [name, response] of Object.entries(document.components.responses as Record<string, any>)) {
      for (const [contentType, media] of Object.entries(response.content as Record<string, any>)) {
        const values = media.examples ? Object.values(media.examples as Record<string, { value: unknown }>).map(({ value }) => value) : [];
        for (const value of media.example === undefined ? values : [media.example]) {
          expect(errorsOf(['components', 'responses', name, 'content', contentType, 'schema'], value)).toEqual([]);
          checked.push(`${name} ${contentType}`);
        }
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(routes.length + Object.keys(document.components.responses).length);
  });

  test('the record schemas are closed: an unknown field is refused', () => {
    const booking = operationOf(routes.find((route) => route.id === 'get-booking')!).responses[200].content['application/json'].example;
    expect(errorsOf(['components', 'schemas', 'Booking'], booking.data)).toEqual([]);
    expect(errorsOf(['components', 'schemas', 'Booking'], { ...booking.data, Extra: true })).toEqual([
      '(root) must NOT have additional properties',
    ]);
  });
});
