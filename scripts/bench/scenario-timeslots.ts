import { getProduct, queryTimeslots } from '../../shared/catalog/repository';
import { addDays } from '../../shared/core/calendar';
import type { Scenario } from './scenario';

export const listTimeslotsScenario: Scenario = {
  name: 'GET timeslots (1 day)',
  service: ({ get, activityId, firstDate }) =>
    get(`/api/v2/ota/marketplace/availability/${activityId}/timeslots?Date=${addDays(firstDate, 1)}`),
  bare: ({ operatorId, activityId, firstDate }) =>
    Promise.all([getProduct(operatorId, activityId), queryTimeslots(operatorId, activityId, addDays(firstDate, 1), addDays(firstDate, 1))]),
};
