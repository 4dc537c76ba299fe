import { validators } from '../../shared/api/validators/get-timeslots.generated';
import { operatorDay } from '../../shared/booking/operator-timeslots';
import { httpHandler, ok } from '../../shared/http/handler';

export const handler = httpHandler(validators, async ({ caller, path, query }) =>
  ok(await operatorDay(caller, path.ActivityID, query.date)),
);
