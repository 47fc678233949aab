import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';
import { axisLabels, isEmpty, type ChartData } from '../data/charts.js';

// Only what the console draws, so the bundle carries no other chart types.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Legend, Tooltip);

const COLOURS = ['#2563eb', '#dc2626', '#059669', '#d97706'];

interface Props {
  title: string;
  kind: 'line' | 'bar';
  data: ChartData | null;
  /** Bars across (long labels: search queries, page paths). */
  horizontal?: boolean;
  stacked?: boolean;
  /** What to say when there is nothing to draw. */
  empty?: string;
}

/**
 * One chart in a labelled figure. The canvas is hidden from screen readers;
 * the same numbers follow as a table they can read (and anyone can open).
 */
export function ChartFigure({ title, kind, data, horizontal = false, stacked = false, empty = 'No data for this period.' }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const blank = isEmpty(data);

  useEffect(() => {
    if (!canvas.current || !data || blank) return undefined;
    const chart = new Chart(canvas.current, {
      type: kind,
      data: {
        labels: axisLabels(data.labels),
        datasets: data.series.map((s, i) => ({
          label: s.name,
          data: s.values,
          backgroundColor: COLOURS[i % COLOURS.length],
          borderColor: COLOURS[i % COLOURS.length],
          tension: 0.2,
          maxBarThickness: 48,
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        indexAxis: horizontal ? 'y' : 'x',
        scales: {
          x: { stacked, beginAtZero: true, ticks: { precision: 0 } },
          y: { stacked, beginAtZero: true, ticks: { precision: 0 } },
        },
        plugins: { legend: { position: 'bottom' } },
      },
    });
    return () => chart.destroy();
  }, [data, kind, horizontal, stacked, blank]);

  const headingId = `chart-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <figure class="card chart" aria-labelledby={headingId} data-chart={headingId}>
      <figcaption id={headingId}>{title}</figcaption>
      {blank || !data ? (
        <p class="empty" data-empty="true">{data ? empty : 'No data: this server does not report it yet.'}</p>
      ) : (
        <>
          <div class="chart-box">
            <canvas ref={canvas} aria-hidden="true" />
          </div>
          <details>
            <summary>Show the numbers</summary>
            <table>
              <caption class="visually-hidden">{title}</caption>
              <thead>
                <tr>
                  <th scope="col">{horizontal ? 'Item' : 'Day'}</th>
                  {data.series.map((s) => (
                    <th scope="col" key={s.name}>{s.name}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.labels.map((label, i) => (
                  <tr key={label}>
                    <th scope="row">{label}</th>
                    {data.series.map((s) => (
                      <td key={s.name}>{s.values[i] ?? 0}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </figure>
  );
}
