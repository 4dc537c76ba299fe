import { validators } from '../../shared/api/validators/list-products.generated';
import { listProducts } from '../../shared/catalog/products';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

export const handler = httpHandler(validators, async ({ caller, query }) => ok(await listProducts(caller, query.name)), problemFace);
