import { validators } from '../../shared/api/validators/get-operator.generated';
import { keyOperator } from '../../shared/accounts/operators';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

export const handler = httpHandler(validators, async ({ caller }) => ok(await keyOperator(caller)), problemFace);
