import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import type { Granularity, SeriesPoint } from '../../shared/usage/model';
import type { UsageSummary, UsageSummaryMeter } from '../../shared/usage/schemas';
import { apiGet, keyOperator } from './api';
import { csvText, download } from './csv';
import { daysAgo, isoDay } from './dates';
import { byId, cell, setStatus, type Panel } from './dom';
import { limitsView } from './limits';

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

/** A summary as the panel shows it: the answer, and the granularity and group-by keys it was asked with. */
interface ShownSummary {
  data: UsageSummary;
  granularity: Granularity;
  keys: string[];
}

/** What the form asks the summary for. */
interface UsageQuery {
  from: string;
  to: string;
  tz: string;
  granularity: Granularity;
  keys: string[];
}

/** A meter's series (its groups with groupBy), each in the colour of its row in the table. */
interface MeterSeries {
  meter: string;
  items: { item: UsageSummaryMeter; colour: string }[];
}

/** The summary's items by meter, in the order of the table. */
function byMeter(data: UsageSummary): MeterSeries[] {
  const meters = new Map<string, MeterSeries>();
  data.Meters.forEach((item, i) => {
    let series = meters.get(item.Meter);
    if (!series) meters.set(item.Meter, (series = { meter: item.Meter, items: [] }));
    series.items.push({ item, colour: SERIES_COLOURS[i % SERIES_COLOURS.length] });
  });
  return [...meters.values()];
}

/**
 * One meter's chart, on a scale of its own: meters measure different things
 * (calls by the thousand, orders by the handful), and one axis for all would
 * flatten the small ones to nothing.
 */
function drawMeterChart(canvas: HTMLCanvasElement, { meter, items }: MeterSeries, { data, granularity, keys }: ShownSummary): Chart<'bar'> {
  const series = SERIES[granularity];
  return new Chart(canvas, {
    type: 'bar',
    data: {
      labels: series.points(items[0].item).map(({ label }) => label),
      datasets: items.map(({ item, colour }) => ({
        label: lineLabel(item, keys),
        data: series.points(item).map(({ point }) => point.Usage),
        backgroundColor: colour,
      })),
    },
    options: {
      // Drawn at once: an operator reads the numbers, and the picture is final as soon as it appears.
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { title: { display: true, text: `${series.column} (${data.Period.TimeZone})` } },
        y: { beginAtZero: true, title: { display: true, text: meter } },
      },
      // A meter's one series is named by its heading; its groups, by a legend.
      plugins: { legend: { display: items.length > 1, position: 'bottom' } },
    },
  });
}

/** Small multiples: a chart per meter, each headed by its name and drawn on its own scale. */
function drawCharts(container: HTMLElement, summary: ShownSummary): Chart<'bar'>[] {
  const words = SERIES[summary.granularity].words;
  const meters = byMeter(summary.data);
  container.replaceChildren(
    ...meters.map(({ meter, items }) => {
      const block = document.createElement('div');
      block.className = 'meter-chart';
      block.dataset.meter = meter;
      const heading = document.createElement('h3');
      heading.textContent = meter;
      if (items.length === 1) {
        const swatch = document.createElement('span');
        swatch.className = 'swatch';
        swatch.style.backgroundColor = items[0].colour;
        heading.prepend(swatch);
      }
      const box = document.createElement('div');
      box.className = 'chart-box';
      const canvas = document.createElement('canvas');
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', `${words} usage of ${meter}; the totals are in the table below`);
      box.append(canvas);
      block.append(heading, box);
      return block;
    }),
  );
  return meters.map((series, i) => drawMeterChart(container.children[i].querySelector('canvas') as HTMLCanvasElement, series, summary));
}

/** The table's header: the meter, a column per group-by key, then the totals. */
function tableHeader(keys: string[]): void {
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

/** The table: a row per meter (or group) with its totals, and the totals of all in the footer. */
function fillTable(table: HTMLTableElement, { data, keys }: ShownSummary): void {
  tableHeader(keys);
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
}

/** The CSV: a row per meter (or group) and point of the series. */
function csvRows({ data, granularity, keys }: ShownSummary): (string | number)[][] {
  const series = SERIES[granularity];
  const rows: (string | number)[][] = [['Meter', ...keys, series.column, 'Usage', 'Events']];
  for (const item of data.Meters) {
    const values = keys.map((key) => item.Dimensions?.[key] ?? '');
    for (const { label, point } of series.points(item)) rows.push([item.Meter, ...values, label, point.Usage, point.Events]);
  }
  return rows;
}

/** The status line of a summary shown: how many groups and meters, and the period. */
function summaryStatus({ data, keys }: ShownSummary): string {
  const meters = new Set(data.Meters.map((item) => item.Meter)).size;
  const groups = keys.length ? `${data.Meters.length} group${data.Meters.length === 1 ? '' : 's'} by ${keys.join(', ')} of ` : '';
  return `${groups}${meters} meter${meters === 1 ? '' : 's'}, ${data.Totals.Events} entries from ${data.Period.From} to ${data.Period.To} (${data.Period.TimeZone}).`;
}

/** The form: the range, time zone, granularity and group-by keys, and the button for a year of monthly totals. */
function usageForm(load: () => void) {
  const form = byId<HTMLFormElement>('usage-form');
  const from = byId<HTMLInputElement>('usage-from');
  const to = byId<HTMLInputElement>('usage-to');
  const timeZone = byId<HTMLInputElement>('usage-tz');
  const granularity = byId<HTMLSelectElement>('usage-granularity');
  const groupBy = byId<HTMLInputElement>('usage-group-by');
  from.value = daysAgo(13);
  to.value = isoDay(new Date());

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (form.reportValidity()) load();
  });
  // A year of monthly totals, the view an operator bills from: the summary takes up to 366 days.
  byId<HTMLButtonElement>('usage-year').addEventListener('click', () => {
    const today = new Date();
    to.value = isoDay(today);
    from.value = isoDay(new Date(today.getFullYear(), today.getMonth() - 11, 1));
    granularity.value = 'month';
    load();
  });
  timeZone.addEventListener('change', () => (timeZone.dataset.chosen = 'true'));

  return {
    element: form,
    query: (): UsageQuery => ({
      from: from.value,
      to: to.value,
      tz: timeZone.value.trim() || 'UTC',
      granularity: granularity.value as Granularity,
      keys: groupKeys(groupBy.value),
    }),
    /** The operator's time zone, until the operator chooses another. */
    async defaultTimeZone(): Promise<void> {
      if (timeZone.dataset.chosen) return;
      timeZone.value = await keyOperator().then(
        (signedIn) => signedIn.TimeZone,
        () => timeZone.value,
      );
    },
    forgetTimeZone(): void {
      delete timeZone.dataset.chosen;
      timeZone.value = 'UTC';
    },
  };
}

/** The summary shown: the chart with its caption, the table of totals, and the CSV of both. */
function usageView() {
  const figure = byId('usage-figure');
  const charts = byId('usage-charts');
  const table = byId<HTMLTableElement>('usage-table');
  const csv = byId<HTMLButtonElement>('usage-csv');
  let drawn: Chart<'bar'>[] = [];
  let shown: ShownSummary | undefined;

  csv.addEventListener('click', () => {
    if (shown) download(`usage-${shown.data.Period.From}-to-${shown.data.Period.To}.csv`, csvText(csvRows(shown)));
  });

  return {
    clear(): void {
      for (const chart of drawn) chart.destroy();
      drawn = [];
      charts.replaceChildren();
      shown = undefined;
      figure.hidden = table.hidden = true;
      csv.disabled = true;
    },
    show(summary: ShownSummary): void {
      shown = summary;
      const { words } = SERIES[summary.granularity];
      const groups = summary.keys.length ? ` and ${summary.keys.join(', ')}` : '';
      byId('usage-caption').textContent =
        `${words} usage per meter${groups}, each meter on a scale of its own; the totals are in the table below.`;
      figure.hidden = false;
      drawn = drawCharts(charts, summary);
      fillTable(table, summary);
      table.hidden = false;
      csv.disabled = false;
    },
  };
}

/** The usage limits, then the usage summary: asked for by the form, shown as a chart per meter, a table and a CSV. */
export function usagePanel(onUnauthorized: (error: unknown) => boolean): Panel {
  const status = byId('usage-status');
  const view = usageView();
  const limits = limitsView();
  const form = usageForm(() => void load());
  let request = 0;

  async function load(): Promise<void> {
    const mine = ++request;
    view.clear();
    setStatus(status, 'loading', 'Loading usage…');
    form.element.setAttribute('aria-busy', 'true');
    const { keys, ...query } = form.query();
    try {
      const data = await apiGet<UsageSummary>('/api/v2/usage/meters', { ...query, groupBy: keys.join(',') });
      if (mine !== request) return;
      if (!data.Meters.length) return setStatus(status, 'empty', 'No usage was recorded in this range.');
      const summary = { data, granularity: query.granularity, keys };
      view.show(summary);
      setStatus(status, 'done', summaryStatus(summary));
    } catch (error) {
      if (mine !== request || onUnauthorized(error)) return;
      setStatus(status, 'error', error, 'usage:read');
    } finally {
      if (mine === request) form.element.removeAttribute('aria-busy');
    }
  }

  return {
    show: () => {
      void limits.load(onUnauthorized);
      void form.defaultTimeZone().then(load);
    },
    reset: () => {
      form.forgetTimeZone();
      view.clear();
      limits.clear();
      setStatus(status, 'idle', '');
    },
  };
}
