import {
  activityIdPath,
  availableDatesQuery,
  availableTimeslotsQuery,
  listProductsQuery,
  resolveProductQuery,
} from '../../catalog/schemas';
import { product, questions } from '../examples';
import type { Operation } from '../operation';
import type { RouteId } from '../routes';

/** The catalogue: products, availability and waiver questions of the partner API. */
export const catalogueOperations = {
  'list-products': {
    request: { query: listProductsQuery },
    docs: {
      tag: 'Catalogue',
      summary: 'List the shopfront',
      description:
        "The operator's visible products in one response, sorted by name (at most 1,000; no pagination). `name` filters by a case-insensitive partial match.",
      success: { status: 200, description: 'The products', data: { listOf: 'Product' }, example: [product] },
    },
  },
  'resolve-product': {
    request: { query: resolveProductQuery },
    docs: {
      tag: 'Catalogue',
      summary: 'Resolve one product by ID or name',
      description: 'Give exactly one of `ID` (the numeric ProductID) and `Name` (exact, case-insensitive); both or neither is 400.',
      success: { status: 200, description: 'The product', data: 'Product', example: product },
      errors: [400, 404],
    },
  },
  'list-available-dates': {
    request: { path: activityIdPath, query: availableDatesQuery },
    docs: {
      tag: 'Catalogue',
      summary: 'Dates with room',
      description:
        'One item per date from `StartDate` to `EndDate` (both included, at most 92 days) that has a timeslot with room that has not started. Dates are local to the operator.',
      success: {
        status: 200,
        description: 'The dates',
        data: { listOf: 'AvailableDate' },
        example: [{ Date: '2026-07-01', Status: 'AVAILABLE', Vacancies: 20, Capacity: 24, AvailableTimeslots: 2 }],
      },
      errors: [404],
    },
  },
  'list-available-timeslots': {
    request: { path: activityIdPath, query: availableTimeslotsQuery },
    docs: {
      tag: 'Catalogue',
      summary: 'Timeslots with room on one date',
      description: "The date's timeslots that have room and have not started, in the operator's time zone.",
      success: {
        status: 200,
        description: 'The timeslots',
        data: { listOf: 'AvailableTimeslot' },
        example: [
          { Date: '2026-07-01', Time: '10:00', StartsAt: '2026-07-01T10:00:00+01:00', Status: 'LIMITED', Vacancies: 2, Capacity: 12 },
        ],
      },
      errors: [404],
    },
  },
  'get-marketplace-questions': {
    request: { path: activityIdPath },
    docs: {
      tag: 'Catalogue',
      summary: 'Waiver questions with their activity',
      description: 'The activity and the waiver questions a booking answers.',
      success: {
        status: 200,
        description: 'The activity and its questions',
        data: 'ActivityQuestions',
        example: { Activity: { ActivityID: 's_kayak01', ProductID: 1001, Name: 'Sunset Kayak Tour' }, Questions: questions },
      },
      errors: [404],
    },
  },
  'get-core-questions': {
    request: { path: activityIdPath },
    docs: {
      tag: 'Catalogue',
      summary: 'Waiver questions, bare list',
      description: "The activity's waiver questions as a bare list.",
      success: { status: 200, description: 'The questions', data: { listOf: 'Question' }, example: questions },
      errors: [404],
    },
  },
} as const satisfies Partial<Record<RouteId, Operation>>;
