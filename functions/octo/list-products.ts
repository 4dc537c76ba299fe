import { validators } from '../../shared/api/validators/octo-list-products.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { listProducts } from '../../shared/octo/operations';

export const handler = httpHandler(validators, listProducts, octoFace);
