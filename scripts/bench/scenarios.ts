import { createBookingScenario, createBookingWithKeyScenario, createHoldScenario } from './scenario-booking';
import { confirmScenario } from './scenario-confirm';
import { listDatesScenario } from './scenario-dates';
import { listProductsScenario } from './scenario-products';
import { listTimeslotsScenario } from './scenario-timeslots';
import { recordUsageScenario, usageSummaryScenario } from './scenario-usage';
import type { Scenario } from './scenario';

/**
 * Every latency scenario, in the order the bench runs them. A new scenario is
 * one module exporting a Scenario plus one line here. `callsPerSide` is what
 * a scenario that prepares one item per call (confirm) must prepare.
 */
export const scenarios = (callsPerSide: number): Scenario[] => [
  listProductsScenario,
  listDatesScenario,
  listTimeslotsScenario,
  createBookingScenario,
  createBookingWithKeyScenario,
  createHoldScenario,
  confirmScenario(callsPerSide),
  recordUsageScenario,
  usageSummaryScenario,
];
