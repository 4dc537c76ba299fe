import { validators } from '../../shared/api/validators/resolve-product.generated';
import { resolveProduct } from '../../shared/catalog/products';
import { httpHandler, ok } from '../../shared/http/handler';

export const handler = httpHandler(validators, async ({ caller, query }) => ok(await resolveProduct(caller, query)));
