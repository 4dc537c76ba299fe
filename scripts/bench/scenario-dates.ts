import { getProduct, queryTimeslots } from '../../shared/catalog/repository';
import { addDays } from '../../shared/core/calendar';
import type { Scenario } from './scenario';

/** A month of availability: the range a partner's calendar widget asks for. */
const RANGE_DAYS = 31;

export const listDatesScenario: Scenario = {
  name: 'GET dates (31 days)',
  service: ({ get, activityId, firstDate }) =>
    get(`/api/v2/ota/marketplace/availability/${activityId}/dates?StartDate=${firstDate}&EndDate=${addDays(firstDate, RANGE_DAYS - 1)}`),
  bare: ({ operatorId, activityId, firstDate }) =>
    Promise.all([
      getProduct(operatorId, activityId),
      queryTimeslots(operatorId, activityId, firstDate, addDays(firstDate, RANGE_DAYS - 1)),
    ]),
};
