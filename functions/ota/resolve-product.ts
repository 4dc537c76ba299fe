import { resolveProduct } from '../../shared/catalog/products';
import { httpHandler, ok } from '../../shared/http/handler';

const query = {
  type: 'object',
  properties: {
    ID: { type: 'string', pattern: '^[1-9][0-9]{0,14}$', errorMessage: 'must be a positive integer' },
    Name: { type: 'string', minLength: 1, maxLength: 200, errorMessage: 'must be 1 to 200 characters' },
  },
};

export const handler = httpHandler<unknown, { ID?: string; Name?: string }>({ query }, async ({ caller, query }) =>
  ok(await resolveProduct(caller, query)),
);
