import { usageBatchBody, usageEntryBody, usageEntryPath, usageSummaryQuery } from '../../usage/schemas';
import { MAX_DIMENSION_COMBINATIONS, MAX_DIMENSIONS } from '../../usage/model';
import { usageBatchRequest, usageBatchResult, usageEntry } from '../examples';
import type { Operation } from '../operation';
import type { RouteId } from '../routes';

/** Usage: entries against named meters, and their summaries. */
export const usageOperations = {
  'record-usage': {
    request: { body: usageEntryBody },
    docs: {
      tag: 'Usage',
      summary: 'Record a usage entry',
      description: `Adds \`Usage\` to a named meter. Built-in meter names are refused. \`Dimensions\` (optional: up to ${MAX_DIMENSIONS} keys, each with a string value) lets summaries group and filter the meter by them; a meter takes at most ${MAX_DIMENSION_COMBINATIONS} distinct combinations of dimensions, and an entry bringing one more is 422 naming the meter and the limit, with nothing recorded. An \`Idempotency-Key\` (kept 7 days) makes retries count once; the same key with other fields, Dimensions included, is 422. An entry that would take a usage limit with \`Enforcement: REFUSE\` past its Amount is 409 \`usage-limit-reached\` (naming the limit and what remains), with nothing written and its key not spent. Entries are read through summaries, so the answer carries no Location.`,
      success: {
        status: 201,
        description: 'The recorded entry (or, for a repeated Idempotency-Key, the original entry again)',
        data: 'UsageEntry',
        example: { ...usageEntry, Dimensions: { Plan: 'pro', Region: 'eu-west' } },
        headers: ['Idempotent-Replayed'],
      },
      requestExample: {
        Meter: 'storage-gb',
        Usage: 0.25,
        ExtraInfo: '{"Bucket":"photos"}',
        OccurredAt: 1773146096,
        Dimensions: { Region: 'eu-west', Plan: 'pro' },
      },
      errors: [409],
      idempotencyKey: true,
    },
  },
  'record-usage-batch': {
    request: { body: usageBatchBody },
    docs: {
      tag: 'Usage',
      summary: 'Record up to 100 usage entries',
      description:
        "Each entry is as in `POST /api/v2/usage/meters`, plus an optional `Identifier` (1–255 visible ASCII characters): the entry's idempotency key, in the same space as the Idempotency-Key header and kept 7 days. A repeated Identifier, in this batch or a later one, counts once and answers the original entry with `Replayed: true`; the same Identifier with different fields is 422. Every entry is checked first: any invalid entry is 422 naming each one (`Entries[3].Usage`, all of them in `errors`) and nothing is written. A 5xx may leave part of the batch written: send it again, and entries with an Identifier count once. Entries that would take a usage limit with `Enforcement: REFUSE` past its Amount are refused, the others recorded: the answer is then 409 `usage-limit-reached`, its `errors` naming each refused entry (`Entries[3]`) and its `Entries` giving every entry's outcome in the order sent (recorded or replayed as here, or `Refused` with the limit and what remained).",
      success: {
        status: 201,
        description: 'Every entry in the order sent: recorded, or the original entry of a repeated Identifier',
        data: 'UsageBatchResult',
        example: usageBatchResult,
      },
      requestExample: usageBatchRequest,
      errors: [409],
    },
  },
  'void-usage-entry': {
    request: { path: usageEntryPath },
    docs: {
      tag: 'Usage',
      summary: 'Void a usage entry',
      description:
        "Takes one entry of the calling operator back out of every total, in one transaction, and marks it `VoidedAt`; the entry is kept. Voiding a voided entry answers it unchanged. Takes no body. An ID that is not one of the operator's entries is 404. An entry of a built-in meter (recorded from a platform event) is 403 `built-in-entry` with nothing changed: only the admin CLI voids those.",
      success: { status: 200, description: 'The voided entry', data: 'VoidedUsageEntry', example: { ...usageEntry, VoidedAt: 1773150000 } },
      errors: [403, 404],
    },
  },
  'get-usage-summary': {
    request: { query: usageSummaryQuery },
    docs: {
      tag: 'Usage',
      summary: 'Usage summary per meter',
      description:
        "Exact per-meter totals over whole days from `from` to `to` (both included, at most 366 days) in the zone `tz` (default UTC; zones whose midnight is not on a whole UTC hour are refused). `granularity` adds a series to every meter: `hour` (`Hours`, ranges of at most 7 days), `day` (`Days`) or `month` (`Months`, calendar months of the zone, the first and last cut to the range). `groupBy=Region` or `groupBy=Region,Plan` splits every meter into one item per group, its `Dimensions` giving the group's values (null for entries without the key); `filter[Plan]=pro` (up to 5, combined with AND, exact match) counts only matching entries, in the items and the Totals. Series split the same way. Voided entries are not counted. `meter=api-calls,storage-gb` (up to 10) reads and answers only those meters. The items read depend on the range and the meters, never on the number of entries; grouping or filtering reads the same items. A summary that would read more than 30,000 aggregates is 422: narrow the range, drop the series, or name the meters.",
      success: {
        status: 200,
        description: 'The summary',
        data: 'UsageSummary',
        example: {
          Period: { From: '2026-03-10', To: '2026-03-11', FromTimestamp: 1773100800, ToTimestamp: 1773273599, TimeZone: 'UTC' },
          Totals: { Usage: 7.3, Events: 3 },
          Meters: [
            { Meter: 'big', TotalUsage: 7, EventCount: 1 },
            { Meter: 'pair', TotalUsage: 0.3, EventCount: 2 },
          ],
        },
      },
    },
  },
} as const satisfies Partial<Record<RouteId, Operation>>;
