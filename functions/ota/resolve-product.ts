import { validators } from '../../shared/api/validators/resolve-product.generated';
import { resolveProduct } from '../../shared/catalog/products';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

export const handler = httpHandler(validators, async ({ caller, query }) => ok(await resolveProduct(caller, query)), problemFace);
