import { validators } from '../../shared/api/validators/list-products.generated';
import { listProducts } from '../../shared/catalog/products';
import { httpHandler, ok } from '../../shared/http/handler';

export const handler = httpHandler(validators, async ({ caller, query }) => ok(await listProducts(caller, query.name)));
