import { validators } from '../../shared/api/validators/octo-get-product.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoGetProduct } from '../../shared/octo/operations';

export const handler = httpHandler(validators, octoGetProduct, octoFace);
