import { validators } from '../../shared/api/validators/octo-list-products.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoListProducts } from '../../shared/octo/operations';

export const handler = httpHandler(validators, octoListProducts, octoFace);
