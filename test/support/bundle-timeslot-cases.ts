import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/db/client';
import * as keys from '../../shared/db/keys';

/**
 * The bundles test's cases of the operator's timeslot routes
 * (test/integration/bundles.test.ts), on `day`, a day of s_walk1 (09:00 and
 * 14:00) that no other case of the test books.
 */
export const timeslotRouteCases = (day: string, operatorId: () => string) => {
  const timeslotOf = (time: string) => ({ ActivityID: 's_walk1', Date: day, Time: time });
  return {
    'get-timeslots': () => ({
      accepted: { path: { ActivityID: 's_walk1' }, query: { date: day } },
      refused: { path: { ActivityID: 's_walk1' } },
      refusedStatus: 422,
    }),
    'change-timeslot': () => ({
      accepted: { path: timeslotOf('14:00'), body: { Capacity: 12 } },
      refused: { path: timeslotOf('14:00'), body: { Capacity: 0 } },
      refusedStatus: 422,
      masked: ['CapacityChangedAt'],
    }),
    'change-timeslot-date': () => ({
      accepted: { path: { ActivityID: 's_walk1', Date: day }, body: { Closed: true, Reason: 'Storm warning' } },
      refused: { path: { ActivityID: 's_walk1', Date: day }, body: {} },
      refusedStatus: 422,
      masked: ['ClosedAt'],
    }),
    'add-timeslots': () => ({
      accepted: { path: { ActivityID: 's_walk1' }, body: { Timeslots: [{ Date: day, Time: '19:00', Capacity: 6 }] } },
      refused: { path: { ActivityID: 's_walk1' }, body: { Timeslots: [{ Date: day, Time: '19:00', Capacity: 0 }] } },
      refusedStatus: 422,
      masked: ['AddedAt'],
      undo: async () => {
        const Key = keys.timeslot(operatorId(), 's_walk1', day, '19:00');
        await documentClient().send(new DeleteCommand({ TableName: tableName(), Key }));
      },
    }),
    'cancel-timeslot': () => ({
      accepted: { path: timeslotOf('09:00'), body: { Reason: 'Storm warning' }, headers: { 'Idempotency-Key': 'bundled-cancel-1' } },
      refused: { path: timeslotOf('09:00'), body: {} },
      refusedStatus: 422,
    }),
  };
};
