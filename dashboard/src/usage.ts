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

export function usagePanel(onUnauthorized: (error: unknown) => boolean): Panel {
  const form = byId<HTMLFormElement>('usage-form');
  const from = byId<HTMLInputElement>('usage-from');
  const to = byId<HTMLInputElement>('usage-to');
  const timeZone = byId<HTMLInputElement>('usage-tz');
  const granularity = byId<HTMLSelectElement>('usage-granularity');
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
  let summary: { data: UsageSummary; granularity: Granularity } | undefined;
  let request = 0;

  function clear(): void {
    chart?.destroy();
    chart = undefined;
    summary = undefined;
    figure.hidden = table.hidden = true;
    csv.disabled = true;
  }

  function draw(data: UsageSummary, per: Granularity): void {
    const series = SERIES[per];
    figure.hidden = false;
    caption.textContent = `${series.words} usage per meter; the totals are in the table below.`;
    chart = new Chart(canvas, {
      type: 'bar',
      data: {
        labels: data.Meters[0] ? series.points(data.Meters[0]).map(({ label }) => label) : [],
        datasets: data.Meters.map((meter, i) => ({
          label: meter.Meter,
          data: series.points(meter).map(({ point }) => point.Usage),
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
    table.tBodies[0].replaceChildren(
      ...data.Meters.map((meter, i) => {
        const tr = document.createElement('tr');
        const name = cell(meter.Meter);
        const swatch = document.createElement('span');
        swatch.className = 'swatch';
        swatch.style.backgroundColor = SERIES_COLOURS[i % SERIES_COLOURS.length];
        name.prepend(swatch);
        tr.append(name, cell(exact(meter.TotalUsage), 'number'), cell(String(meter.EventCount), 'number'));
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
    try {
      const data = await apiGet<UsageSummary>('/api/v2/usage/meters', {
        from: from.value,
        to: to.value,
        tz: timeZone.value.trim() || 'UTC',
        granularity: per,
      });
      if (mine !== request) return;
      summary = { data, granularity: per };
      if (!data.Meters.length) {
        setStatus(status, 'empty', 'No usage was recorded in this range.');
        return;
      }
      draw(data, per);
      csv.disabled = false;
      setStatus(
        status,
        'done',
        `${data.Meters.length} meter${data.Meters.length === 1 ? '' : 's'}, ${data.Totals.Events} entries from ${data.Period.From} to ${data.Period.To} (${data.Period.TimeZone}).`,
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
    const series = SERIES[summary.granularity];
    const rows: (string | number)[][] = [['Meter', series.column, 'Usage', 'Events']];
    for (const meter of summary.data.Meters)
      for (const { label, point } of series.points(meter)) rows.push([meter.Meter, label, point.Usage, point.Events]);
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
