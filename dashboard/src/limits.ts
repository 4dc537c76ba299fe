import type { UsageLimit, UsageLimitStatus } from '../../shared/usage/limit-schemas';
import { apiGet } from './api';
import { byId, cell, setStatus } from './dom';

/**
 * The operator's usage limits, each as used / amount in its current period
 * with its thresholds (those crossed marked), how it enforces, and when it
 * resets: the list, and each limit's status, read from the API.
 */

const PERIOD_WORDS = { DAY: 'Day', MONTH: 'Month' } as const;
const ENFORCEMENT_WORDS = { NONE: 'Alerts only', REFUSE: 'Refuses past the amount' } as const;

/** An instant as the limit's zone reads it: `2026-04-01 00:00`. */
function localTime(unixSeconds: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(unixSeconds * 1000));
  const part = (type: string) => parts.find((one) => one.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

/** Used / amount, with a bar of the share used: a meter element, which assistive technology reads as a gauge. */
function usedCell(status: UsageLimitStatus): HTMLTableCellElement {
  const td = cell(`${status.Used} / ${status.Amount}`, 'number used');
  const gauge = document.createElement('meter');
  gauge.min = 0;
  gauge.max = status.Amount;
  gauge.value = Math.min(status.Used, status.Amount);
  gauge.high = status.Amount * 0.8;
  gauge.optimum = 0;
  gauge.setAttribute('aria-label', `${status.Used} used of ${status.Amount}, ${status.Remaining} remaining`);
  td.append(gauge);
  return td;
}

/** Each threshold, the crossed ones marked: a list, so that each is read on its own. */
function thresholdsCell(status: UsageLimitStatus): HTMLTableCellElement {
  const td = document.createElement('td');
  const list = document.createElement('ul');
  list.className = 'thresholds';
  for (const { Percent, Crossed } of status.Thresholds) {
    const item = document.createElement('li');
    item.textContent = Crossed ? `${Percent}% crossed` : `${Percent}%`;
    item.className = Crossed ? 'crossed' : '';
    list.append(item);
  }
  td.append(status.Thresholds.length ? list : document.createTextNode('None'));
  return td;
}

function limitRow(limit: UsageLimit, status: UsageLimitStatus): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.dataset.limit = limit.LimitID;
  const meter = cell(limit.Meter);
  if (limit.Filter) {
    const filter = document.createElement('span');
    filter.className = 'detail';
    filter.textContent = Object.entries(limit.Filter)
      .map(([key, value]) => `${key} = ${value}`)
      .join(', ');
    meter.append(filter);
  }
  const enforcement = cell(ENFORCEMENT_WORDS[limit.Enforcement]);
  if (!status.Allowed) enforcement.classList.add(limit.Enforcement === 'REFUSE' ? 'refusing' : 'over');
  tr.append(
    cell(limit.LimitID, 'mono'),
    meter,
    cell(`${PERIOD_WORDS[limit.Period]} (${limit.TimeZone})`),
    usedCell(status),
    thresholdsCell(status),
    enforcement,
    cell(localTime(status.ResetsAt, limit.TimeZone), 'when'),
  );
  return tr;
}

/** The limits' table and its status line. */
export function limitsView() {
  const status = byId('limits-status');
  const table = byId<HTMLTableElement>('limits-table');
  let request = 0;

  return {
    async load(onUnauthorized: (error: unknown) => boolean): Promise<void> {
      const mine = ++request;
      table.hidden = true;
      setStatus(status, 'loading', 'Loading usage limits…');
      try {
        const limits = await apiGet<UsageLimit[]>('/api/v2/usage/limits', {});
        const statuses = await Promise.all(
          limits.map((limit) => apiGet<UsageLimitStatus>(`/api/v2/usage/limits/${encodeURIComponent(limit.LimitID)}/status`, {})),
        );
        if (mine !== request) return;
        if (!limits.length) return setStatus(status, 'empty', 'No usage limits are set.');
        table.tBodies[0].replaceChildren(...limits.map((limit, i) => limitRow(limit, statuses[i])));
        table.hidden = false;
        const reached = statuses.filter((one) => !one.Allowed).length;
        const plural = limits.length === 1 ? '' : 's';
        setStatus(
          status,
          'done',
          `${limits.length} usage limit${plural}${reached ? `, ${reached} reached` : ''}, in their current periods.`,
        );
      } catch (error) {
        if (mine !== request || onUnauthorized(error)) return;
        setStatus(status, 'error', error, 'usage:read');
      }
    },
    clear(): void {
      request += 1;
      table.hidden = true;
      setStatus(status, 'idle', '');
    },
  };
}
