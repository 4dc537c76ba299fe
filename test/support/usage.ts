import type { HttpClient, TestOperator } from './fixtures';

export const METERS = '/api/v2/usage/meters';
export const BATCH = `${METERS}/batch`;
export const voidPath = (id: number | string) => `${METERS}/${id}/void`;

/** Unix seconds of a UTC date and time. */
export const at = (date: string, time = '12:00:00') => Date.parse(`${date}T${time}Z`) / 1000;

export const usageClient = (request: HttpClient, operator: TestOperator) => ({
  record: (body: unknown, headers: Record<string, string> = {}) => request('POST', METERS, { key: operator.key, body, headers }),
  batch: (entries: unknown[]) => request('POST', BATCH, { key: operator.key, body: { Entries: entries } }),
  voidEntry: (id: number | string) => request('POST', voidPath(id), { key: operator.key }),
  summary: async (query: string) => {
    const response = await request('GET', `${METERS}?${query}`, { key: operator.key });
    if (response.status !== 200) throw new Error(`Summary ${query} answered ${response.status}: ${response.text}`);
    return response.json.data;
  },
});

/** The invariants every summary keeps: Totals are the sums of the items, items sorted by TotalUsage then Meter, series sum to totals. */
export function expectSummaryInvariants(summary: any): void {
  const cents = (value: number) => Math.round(value * 1e6);
  expect(cents(summary.Totals.Usage)).toBe(summary.Meters.reduce((sum: number, meter: any) => sum + cents(meter.TotalUsage), 0));
  expect(summary.Totals.Events).toBe(summary.Meters.reduce((sum: number, meter: any) => sum + meter.EventCount, 0));
  const order = [...summary.Meters].sort(
    (a: any, b: any) => b.TotalUsage - a.TotalUsage || (a.Meter < b.Meter ? -1 : a.Meter > b.Meter ? 1 : 0),
  );
  expect(summary.Meters.map((meter: any) => meter.Meter)).toEqual(order.map((meter: any) => meter.Meter));
  for (const meter of summary.Meters) {
    expect(meter.EventCount).toBeGreaterThan(0);
    const series = meter.Hours ?? meter.Days ?? meter.Months;
    if (!series) continue;
    expect(series.reduce((sum: number, point: any) => sum + cents(point.Usage), 0)).toBe(cents(meter.TotalUsage));
    expect(series.reduce((sum: number, point: any) => sum + point.Events, 0)).toBe(meter.EventCount);
  }
}

export const LIMITS = '/api/v2/usage/limits';
export const USAGE_WEBHOOK = '/api/v2/usage/webhook';

/** A usage limit's routes, for one operator. */
export const limitsClient = (request: HttpClient, operator: TestOperator) => ({
  put: (limitId: string, body: unknown) => request('PUT', `${LIMITS}/${limitId}`, { key: operator.key, body }),
  get: (limitId: string) => request('GET', `${LIMITS}/${limitId}`, { key: operator.key }),
  list: () => request('GET', LIMITS, { key: operator.key }),
  remove: (limitId: string) => request('DELETE', `${LIMITS}/${limitId}`, { key: operator.key }),
  status: async (limitId: string) => {
    const response = await request('GET', `${LIMITS}/${limitId}/status`, { key: operator.key });
    if (response.status !== 200) throw new Error(`Status of ${limitId} answered ${response.status}: ${response.text}`);
    return response.json.data;
  },
});
