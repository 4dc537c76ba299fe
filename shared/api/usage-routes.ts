import type { Route } from './routes';

/**
 * The route table's rows of usage metering (shared/api/routes.ts reads them
 * in its place): recording, voids and summaries, the usage limits and their
 * status, and the operator's usage webhook endpoint.
 */
export const usageRoutes = [
  {
    id: 'record-usage',
    method: 'POST',
    path: '/api/v2/usage/meters',
    entry: 'functions/usage/record-usage.ts',
    scope: 'usage:write',
    tableAccess: 'readWrite',
  },
  {
    id: 'record-usage-batch',
    method: 'POST',
    path: '/api/v2/usage/meters/batch',
    entry: 'functions/usage/record-usage-batch.ts',
    scope: 'usage:write',
    tableAccess: 'readWrite',
  },
  {
    id: 'void-usage-entry',
    method: 'POST',
    path: '/api/v2/usage/meters/{ID}/void',
    entry: 'functions/usage/void-usage-entry.ts',
    scope: 'usage:write',
    tableAccess: 'readWrite',
  },
  {
    id: 'get-usage-summary',
    method: 'GET',
    path: '/api/v2/usage/meters',
    entry: 'functions/usage/get-usage-summary.ts',
    scope: 'usage:read',
    tableAccess: 'read',
  },
  {
    id: 'put-usage-limit',
    method: 'PUT',
    path: '/api/v2/usage/limits/{LimitID}',
    entry: 'functions/usage/put-usage-limit.ts',
    scope: 'usage:write',
    tableAccess: 'readWrite',
  },
  {
    id: 'list-usage-limits',
    method: 'GET',
    path: '/api/v2/usage/limits',
    entry: 'functions/usage/list-usage-limits.ts',
    scope: 'usage:read',
    tableAccess: 'read',
  },
  {
    id: 'get-usage-limit',
    method: 'GET',
    path: '/api/v2/usage/limits/{LimitID}',
    entry: 'functions/usage/get-usage-limit.ts',
    scope: 'usage:read',
    tableAccess: 'read',
  },
  {
    id: 'delete-usage-limit',
    method: 'DELETE',
    path: '/api/v2/usage/limits/{LimitID}',
    entry: 'functions/usage/delete-usage-limit.ts',
    scope: 'usage:write',
    tableAccess: 'readWrite',
  },
  {
    id: 'get-usage-limit-status',
    method: 'GET',
    path: '/api/v2/usage/limits/{LimitID}/status',
    entry: 'functions/usage/get-usage-limit-status.ts',
    scope: 'usage:read',
    tableAccess: 'read',
  },
  {
    id: 'put-usage-webhook',
    method: 'PUT',
    path: '/api/v2/usage/webhook',
    entry: 'functions/usage/put-usage-webhook.ts',
    scope: 'usage:write',
    tableAccess: 'readWrite',
    issuesSigningSecrets: true,
  },
  {
    id: 'get-usage-webhook',
    method: 'GET',
    path: '/api/v2/usage/webhook',
    entry: 'functions/usage/get-usage-webhook.ts',
    scope: 'usage:read',
    tableAccess: 'read',
  },
  {
    id: 'delete-usage-webhook',
    method: 'DELETE',
    path: '/api/v2/usage/webhook',
    entry: 'functions/usage/delete-usage-webhook.ts',
    scope: 'usage:write',
    tableAccess: 'readWrite',
  },
] as const satisfies readonly Route[];
