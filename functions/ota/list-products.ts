import { listProducts } from '../../shared/catalog/products';
import { httpHandler, ok } from '../../shared/http/handler';

const query = {
  type: 'object',
  properties: { name: { type: 'string', maxLength: 200, errorMessage: 'must be at most 200 characters' } },
};

export const handler = httpHandler<unknown, { name?: string }>({ query }, async ({ caller, query }) =>
  ok(await listProducts(caller, query.name)),
);
