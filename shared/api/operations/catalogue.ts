import {
  activityIdPath,
  availableDatesQuery,
  availableTimeslotsQuery,
  listProductsQuery,
  resolveProductQuery,
} from '../../catalog/schemas';
import { availabilityChangesQuery } from '../../changes/schemas';
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
  'list-availability-changes': {
    request: { query: availabilityChangesQuery },
    docs: {
      tag: 'Catalogue',
      summary: 'Availability changes since a cursor',
      description:
        "For partners that pull instead of receiving `availability.changed`: the latest state of each timeslot of the operator's visible products that changed since `since`, oldest change first, at most `limit` (default 100, at most 1,000), and the `Cursor` to ask again with. Without `since`: no changes and the cursor of now, where a partner starts after reading availability in full. Each change carries its timeslot's `Sequence`: apply it only when above the last you applied. Changes are kept 7 days: an older cursor, or one that is not a cursor of these changes, is a 410 (`cursor-expired`): read availability in full and start again without `since`.",
      success: {
        status: 200,
        description: 'The changes and the cursor to ask again with',
        data: 'AvailabilityChanges',
        example: {
          Changes: [
            {
              ActivityID: 's_kayak01',
              Date: '2026-07-01',
              Time: '10:00',
              StartsAt: '2026-07-01T10:00:00+01:00',
              Status: 'LIMITED',
              Vacancies: 2,
              Capacity: 12,
              ChangedAt: '2026-06-20T09:15:02.123Z',
              Sequence: 14,
            },
          ],
          Cursor: 'YzEgOWQ1ZWQ2NzggMTcgMTc1MDQxMDkwMjEyMw',
          HasMore: false,
        },
      },
      errors: [410],
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
