import { validators } from '../../shared/api/validators/erase-personal-data.generated';
import { erasePersonalData } from '../../shared/booking/erasure';
import { httpHandler, ok } from '../../shared/http/handler';
import { problemFace } from '../../shared/http/problem-face';

export const handler = httpHandler(
  validators,
  async ({ caller, query, body }) => {
    const { bookings, more } = await erasePersonalData(
      caller.operatorId,
      body,
      query.limit === undefined ? undefined : Number(query.limit),
    );
    return ok({ Bookings: bookings, More: more });
  },
  problemFace,
);
