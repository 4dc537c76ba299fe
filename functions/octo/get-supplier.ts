import { validators } from '../../shared/api/validators/octo-get-supplier.generated';
import { httpHandler } from '../../shared/http/handler';
import { octoFace } from '../../shared/octo/face';
import { octoGetSupplier } from '../../shared/octo/operations';

export const handler = httpHandler(validators, octoGetSupplier, octoFace);
