import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import type { Granularity, SeriesPoint } from '../../shared/usage/model';
import type { UsageSummary, UsageSummaryMeter } from '../../shared/usage/schemas';
import { apiGet, keyOperator } from './api';
import { csvText, download } from './csv';
import { daysAgo, isoDay } from './dates';
import { byId, cell, setStatus, type Panel } from './dom';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

/** How each granularity's series is named in the summary, labelled on the chart and headed in the CSV. */
const SERIES: Record<
  Granularity,
  { words: string; column: string; points: (meter: UsageSummaryMeter) => { label: string; point: SeriesPoint }[] }
> = {
  hour: {
    words: 'Hourly',
    column: 'Hour',
    points: (meter) => (meter.Hours ?? []).map((point) => ({ label: point.Start.slice(0, 16).replace('T', ' '), point })),
  },
  day: { words: 'Daily', column: 'Date', points: (meter) => (meter.Days ?? []).map((point) => ({ label: point.Date, point })) },
  month: { words: 'Monthly', column: 'Month', points: (meter) => (meter.Months ?? []).map((point) => ({ label: point.Month, point })) },
};

/** Distinct, colour-blind-friendly series colours (Okabe-Ito), repeated beyond eight meters. */
export const SERIES_COLOURS = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442', '#000000'];

/** Totals are exact decimals in the JSON; shown as sent, never rounded by float formatting. */
const exact = (value: number) => String(value);

/** How a group's missing value reads in the table and the chart; the CSV leaves the field empty (a value is never empty). */
const NONE = '(none)';

/** The keys typed in the group-by box: `Region, Plan` → ['Region', 'Plan']; empty for one total per meter. */
const groupKeys = (text: string) =>
  text
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);

/** A chart series' name: the meter, and with groupBy its group's values. */
const lineLabel = (item: UsageSummaryMeter, keys: string[]) =>
  keys.length ? `${item.Meter} · ${keys.map((key) => `${key} ${item.Dimensions?.[key] ?? NONE}`).join(', ')}` : item.Meter;

export function usagePanel(onUnauthorized: (error: unknown) => boolean): Panel {
  const form = byId<HTMLFormElement>('usage-form');
  const from = byId<HTMLInputElement>('usage-from');
  const to = byId<HTMLInputElement>('usage-to');
  const timeZone = byId<HTMLInputElement>('usage-tz');
  const granularity = byId<HTMLSelectElement>('usage-granularity');
  const groupBy = byId<HTMLInputElement>('usage-group-by');
  const year = byId<HTMLButtonElement>('usage-year');
  const caption = byId('usage-caption');
  const csv = byId<HTMLButtonElement>('usage-csv');
  const status = byId('usage-status');
  const figure = byId('usage-figure');
  const canvas = byId<HTMLCanvasElement>('usage-chart');
  const table = byId<HTMLTableElement>('usage-table');
  from.value = daysAgo(13);
  to.value = isoDay(new Date());

  let chart: Chart<'bar'> | undefined;
  let summary: { data: UsageSummary; granularity: Granularity; keys: string[] } | undefined;
  let request = 0;

  function clear(): void {
    chart?.destroy();
    chart = undefined;
    summary = undefined;
    figure.hidden = table.hidden = true;
    csv.disabled = true;
  }

  function header(keys: string[]): void {
    const column = (text: string, className = '') => {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = text;
      if (className) th.className = className;
      return th;
    };
    byId('usage-head').replaceChildren(
      column('Meter'),
      ...keys.map((key) => column(key)),
      column('Total usage', 'number'),
      column('Entries', 'number'),
    );
    byId<HTMLTableCellElement>('usage-total-label').colSpan = 1 + keys.length;
  }

  function draw(data: UsageSummary, per: Granularity, keys: string[]): void {
    const series = SERIES[per];
    figure.hidden = false;
    caption.textContent = `${series.words} usage per meter${keys.length ? ` and ${keys.join(', ')}` : ''}; the totals are in the table below.`;
    chart = new Chart(canvas, {
      type: 'bar',
      data: {
        labels: data.Meters[0] ? series.points(data.Meters[0]).map(({ label }) => label) : [],
        datasets: data.Meters.map((item, i) => ({
          label: lineLabel(item, keys),
          data: series.points(item).map(({ point }) => point.Usage),
          backgroundColor: SERIES_COLOURS[i % SERIES_COLOURS.length],
        })),
      },
      options: {
        // Drawn at once: an operator reads the numbers, and the picture is final as soon as it appears.
        animation: false,
        maintainAspectRatio: false,
        scales: {
          x: { title: { display: true, text: `${series.column} (${data.Period.TimeZone})` } },
          y: { beginAtZero: true, title: { display: true, text: 'Usage' } },
        },
        plugins: { legend: { position: 'bottom' } },
      },
    });
    header(keys);
    table.tBodies[0].replaceChildren(
      ...data.Meters.map((item, i) => {
        const tr = document.createElement('tr');
        const name = cell(item.Meter);
        const swatch = document.createElement('span');
        swatch.className = 'swatch';
        swatch.style.backgroundColor = SERIES_COLOURS[i % SERIES_COLOURS.length];
        name.prepend(swatch);
        tr.append(
          name,
          ...keys.map((key) => cell(item.Dimensions?.[key] ?? NONE)),
          cell(exact(item.TotalUsage), 'number'),
          cell(String(item.EventCount), 'number'),
        );
        return tr;
      }),
    );
    byId('usage-total').textContent = exact(data.Totals.Usage);
    byId('usage-events').textContent = String(data.Totals.Events);
    table.hidden = false;
  }

  async function load(): Promise<void> {
    const mine = ++request;
    clear();
    setStatus(status, 'loading', 'Loading usage…');
    form.setAttribute('aria-busy', 'true');
    const per = granularity.value as Granularity;
    const keys = groupKeys(groupBy.value);
    try {
      const data = await apiGet<UsageSummary>('/api/v2/usage/meters', {
        from: from.value,
        to: to.value,
        tz: timeZone.value.trim() || 'UTC',
        granularity: per,
        groupBy: keys.join(','),
      });
      if (mine !== request) return;
      summary = { data, granularity: per, keys };
      if (!data.Meters.length) {
        setStatus(status, 'empty', 'No usage was recorded in this range.');
        return;
      }
      draw(data, per, keys);
      csv.disabled = false;
      const meters = new Set(data.Meters.map((item) => item.Meter)).size;
      const groups = keys.length ? `${data.Meters.length} group${data.Meters.length === 1 ? '' : 's'} by ${keys.join(', ')} of ` : '';
      setStatus(
        status,
        'done',
        `${groups}${meters} meter${meters === 1 ? '' : 's'}, ${data.Totals.Events} entries from ${data.Period.From} to ${data.Period.To} (${data.Period.TimeZone}).`,
      );
    } catch (error) {
      if (mine !== request || onUnauthorized(error)) return;
      setStatus(status, 'error', error, 'usage:read');
    } finally {
      if (mine === request) form.removeAttribute('aria-busy');
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (form.reportValidity()) void load();
  });
  // A year of monthly totals, the view an operator bills from: the summary takes up to 366 days.
  year.addEventListener('click', () => {
    const today = new Date();
    to.value = isoDay(today);
    from.value = isoDay(new Date(today.getFullYear(), today.getMonth() - 11, 1));
    granularity.value = 'month';
    void load();
  });
  csv.addEventListener('click', () => {
    if (!summary) return;
    const { keys } = summary;
    const series = SERIES[summary.granularity];
    const rows: (string | number)[][] = [['Meter', ...keys, series.column, 'Usage', 'Events']];
    for (const item of summary.data.Meters) {
      const values = keys.map((key) => item.Dimensions?.[key] ?? '');
      for (const { label, point } of series.points(item)) rows.push([item.Meter, ...values, label, point.Usage, point.Events]);
    }
    download(`usage-${summary.data.Period.From}-to-${summary.data.Period.To}.csv`, csvText(rows));
  });

  /** The operator's time zone, until the operator chooses another. */
  async function defaultTimeZone(): Promise<void> {
    if (timeZone.dataset.chosen) return;
    timeZone.value = await keyOperator().then(
      (signedIn) => signedIn.TimeZone,
      () => timeZone.value,
    );
  }
  timeZone.addEventListener('change', () => (timeZone.dataset.chosen = 'true'));

  return {
    show: () => void defaultTimeZone().then(load),
    reset: () => {
      delete timeZone.dataset.chosen;
      timeZone.value = 'UTC';
      clear();
      setStatus(status, 'idle', '');
    },
  };
}
