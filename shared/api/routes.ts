import path from 'node:path';
import type { Scope } from '../accounts/scopes';
import { answerPaths } from './answer-paths';
import { octoRoutes } from './octo-routes';
import { usageRoutes } from './usage-routes';

/** The scope of a route every valid key may call, whatever its scopes. */
export const ANY_KEY = 'any-key';

/**
 * The route table: one row per endpoint, how a request reaches its function.
 * The CDK stack makes one function and one API method per row; the local
 * host routes requests by the same rows; the authorizer grants a key the rows
 * whose scope it holds. What each operation takes and answers (its request
 * schemas and its docs) is in operations.ts, which the generated validators,
 * the request types and the OpenAPI document are built from: functions load
 * this table (the authorizer) without that weight.
 */
export interface Route {
  /** Function name stem, unique. */
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** API Gateway resource path; `{Name}` segments are path parameters. */
  path: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  entry: string;
  /** The scope a key needs, or ANY_KEY: every valid key. */
  scope: Scope | typeof ANY_KEY;
  /** The table access the function's role is granted. */
  tableAccess: 'read' | 'readWrite';
  /** It issues webhook signing secrets: its role may encrypt them with their KMS key, and only that (lib/aws/signing-secrets-key.ts). */
  issuesSigningSecrets?: true;
  /** OCTo's face (bare OCTo bodies, OCTo's error body, docs/octo.md); absent: the marketplace's (`{ data }`, RFC 7807 problems). */
  face?: 'octo';
}

const routeTable = [
  {
    id: 'list-products',
    method: 'GET',
    path: '/api/v2/ota/marketplace/products',
    entry: 'functions/ota/list-products.ts',
    scope: 'ota',
    tableAccess: 'read',
  },
  {
    id: 'resolve-product',
    method: 'GET',
    path: '/api/v2/ota/marketplace/resolve-product',
    entry: 'functions/ota/resolve-product.ts',
    scope: 'ota',
    tableAccess: 'read',
  },
  {
    id: 'list-available-dates',
    method: 'GET',
    path: '/api/v2/ota/marketplace/availability/{ActivityID}/dates',
    entry: 'functions/ota/list-available-dates.ts',
    scope: 'ota',
    tableAccess: 'read',
  },
  {
    id: 'list-available-timeslots',
    method: 'GET',
    path: '/api/v2/ota/marketplace/availability/{ActivityID}/timeslots',
    entry: 'functions/ota/list-available-timeslots.ts',
    scope: 'ota',
    tableAccess: 'read',
  },
  {
    id: 'list-availability-changes',
    method: 'GET',
    path: '/api/v2/ota/marketplace/availability/changes',
    entry: 'functions/ota/list-availability-changes.ts',
    scope: 'ota',
    tableAccess: 'read',
  },
  {
    id: 'get-marketplace-questions',
    method: 'GET',
    path: '/api/v2/ota/marketplace/questions/{ActivityID}',
    entry: 'functions/ota/get-marketplace-questions.ts',
    scope: 'ota',
    tableAccess: 'read',
  },
  {
    id: 'get-core-questions',
    method: 'GET',
    path: '/api/v2/ota/core/questions/{ActivityID}',
    entry: 'functions/ota/get-core-questions.ts',
    scope: 'ota',
    tableAccess: 'read',
  },
  {
    id: 'create-booking',
    method: 'POST',
    path: '/api/v2/ota/marketplace/booking',
    entry: 'functions/ota/create-booking.ts',
    scope: 'ota',
    tableAccess: 'readWrite',
  },
  {
    id: 'get-booking',
    method: 'GET',
    path: answerPaths['get-booking'],
    entry: 'functions/ota/get-booking.ts',
    scope: 'ota',
    tableAccess: 'read',
  },
  {
    id: 'cancel-booking',
    method: 'POST',
    path: '/api/v2/ota/marketplace/booking/{BookingReference}/cancel',
    entry: 'functions/ota/cancel-booking.ts',
    scope: 'ota',
    tableAccess: 'readWrite',
  },
  {
    id: 'confirm-booking',
    method: 'POST',
    path: '/api/v2/ota/marketplace/booking/{BookingReference}/confirm',
    entry: 'functions/ota/confirm-booking.ts',
    scope: 'ota',
    tableAccess: 'readWrite',
  },
  {
    id: 'list-bookings',
    method: 'GET',
    path: '/api/v2/bookings',
    entry: 'functions/bookings/list-bookings.ts',
    scope: 'bookings:read',
    tableAccess: 'read',
  },
  {
    id: 'cancel-operator-booking',
    method: 'POST',
    path: '/api/v2/bookings/{BookingReference}/cancel',
    entry: 'functions/bookings/cancel-operator-booking.ts',
    scope: 'bookings:write',
    tableAccess: 'readWrite',
  },
  {
    id: 'erase-personal-data',
    method: 'POST',
    path: '/api/v2/bookings/erasure',
    entry: 'functions/bookings/erase-personal-data.ts',
    scope: 'bookings:write',
    tableAccess: 'readWrite',
  },
  {
    id: 'get-timeslots',
    method: 'GET',
    path: '/api/v2/timeslots/{ActivityID}',
    entry: 'functions/timeslots/get-timeslots.ts',
    scope: 'availability:write',
    tableAccess: 'read',
  },
  {
    id: 'add-timeslots',
    method: 'POST',
    path: '/api/v2/timeslots/{ActivityID}',
    entry: 'functions/timeslots/add-timeslots.ts',
    scope: 'availability:write',
    tableAccess: 'readWrite',
  },
  {
    id: 'change-timeslot-date',
    method: 'PATCH',
    path: '/api/v2/timeslots/{ActivityID}/{Date}',
    entry: 'functions/timeslots/change-timeslot-date.ts',
    scope: 'availability:write',
    tableAccess: 'readWrite',
  },
  {
    id: 'change-timeslot',
    method: 'PATCH',
    path: '/api/v2/timeslots/{ActivityID}/{Date}/{Time}',
    entry: 'functions/timeslots/change-timeslot.ts',
    scope: 'availability:write',
    tableAccess: 'readWrite',
  },
  {
    id: 'cancel-timeslot',
    method: 'POST',
    path: '/api/v2/timeslots/{ActivityID}/{Date}/{Time}/cancel',
    entry: 'functions/timeslots/cancel-timeslot.ts',
    scope: 'availability:write',
    tableAccess: 'readWrite',
  },
  {
    id: 'put-webhook',
    method: 'PUT',
    path: '/api/v2/ota/webhook',
    entry: 'functions/ota/put-webhook.ts',
    scope: 'ota',
    tableAccess: 'readWrite',
    issuesSigningSecrets: true,
  },
  {
    id: 'get-webhook',
    method: 'GET',
    path: '/api/v2/ota/webhook',
    entry: 'functions/ota/get-webhook.ts',
    scope: 'ota',
    tableAccess: 'read',
  },
  {
    id: 'delete-webhook',
    method: 'DELETE',
    path: '/api/v2/ota/webhook',
    entry: 'functions/ota/delete-webhook.ts',
    scope: 'ota',
    tableAccess: 'readWrite',
  },
  {
    id: 'get-operator',
    method: 'GET',
    path: '/api/v2/operator',
    entry: 'functions/accounts/get-operator.ts',
    scope: ANY_KEY,
    tableAccess: 'read',
  },
  ...usageRoutes,
  ...octoRoutes,
] as const satisfies readonly Route[];

export type RouteId = (typeof routeTable)[number]['id'];

export const routes: readonly (Route & { id: RouteId })[] = routeTable;

/** The authorizer is not a route, but is bundled and hosted the same way. */
export const authorizerEntry = 'functions/auth/authorize.ts';

/** The project root: every `entry` is a path relative to it. */
export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

export const entryPath = (entry: string): string => path.join(PROJECT_ROOT, entry);
