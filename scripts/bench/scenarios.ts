import { createBookingScenario, createBookingWithKeyScenario } from './scenario-booking';
import { listDatesScenario } from './scenario-dates';
import { listProductsScenario } from './scenario-products';
import { listTimeslotsScenario } from './scenario-timeslots';
import { recordUsageScenario, usageSummaryScenario } from './scenario-usage';
import type { Scenario } from './scenario';

/**
 * Every latency scenario, in the order the bench runs them. A new scenario is
 * one module exporting a Scenario plus one line here.
 */
export const scenarios: Scenario[] = [
  listProductsScenario,
  listDatesScenario,
  listTimeslotsScenario,
  createBookingScenario,
  createBookingWithKeyScenario,
  recordUsageScenario,
  usageSummaryScenario,
];
