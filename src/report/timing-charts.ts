/**
 * Timing as charts (SVG in the file, readable offline): answer time per operation, convergence per
 * final status, webhook delay per event; for compare, base against candidate. Drawn by Apache ECharts'
 * server-side renderer (`renderer: 'svg', ssr: true`: an SVG string in Node, no browser, no DOM),
 * loaded only when a chart is drawn.
 */
import { createRequire } from 'node:module';
import type { TimingSeriesName } from '../core/index.ts';
import type { TimingSummary } from './timing.ts';

type ECharts = typeof import('echarts');
let loaded: ECharts | undefined;
const echarts = (): ECharts => (loaded ??= createRequire(import.meta.url)('echarts') as ECharts);

const TITLES: Record<TimingSeriesName, string> = {
  operations: 'Answer time per operation (ms)',
  convergence: 'Convergence: request to final status (ms)',
  webhookDelay: 'Webhook delay: arrival minus first poll sight (ms; < 0 webhook first)',
  webhookArrival: 'Webhook arrival: request to webhook (ms)',
  steps: 'Terminal steps (ms)',
};

/** The series a report charts, in order. */
export const CHARTED: readonly TimingSeriesName[] = ['operations', 'convergence', 'webhookDelay'];

/** One horizontal bar chart: a row per key, a bar per named value list. */
function barChart(title: string, keys: string[], bars: { name: string; values: number[]; color: string }[]): string {
  const height = Math.max(160, 70 + keys.length * (bars.length * 9 + 8));
  const chart = echarts().init(null, null, { renderer: 'svg', ssr: true, width: 560, height });
  try {
    chart.setOption({
      animation: false,
      // Opaque: the SVG is also shown alone (an Allure attachment), on a light or a dark page.
      backgroundColor: '#ffffff',
      title: { text: title, textStyle: { fontSize: 13, fontWeight: 'bold' }, left: 0 },
      legend: { top: 28, left: 0, textStyle: { fontSize: 11 } },
      grid: { left: 8, right: 40, top: 58, bottom: 8, containLabel: true },
      xAxis: { type: 'value', axisLabel: { fontSize: 10 } },
      yAxis: { type: 'category', data: keys, inverse: true, axisLabel: { fontSize: 10 } },
      series: bars.map((b) => ({
        type: 'bar',
        name: b.name,
        data: b.values,
        itemStyle: { color: b.color },
        barMaxWidth: 10,
        label: { show: true, position: 'right', fontSize: 9 },
      })),
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** One chart of a run's timing: its series, title and SVG document. */
export interface TimingChart {
  series: TimingSeriesName;
  title: string;
  svg: string;
}

/**
 * The charts drawn of each run's timing: a run's reports show the same charts twice (certification.html
 * and Allure's global attachments), and each drawing costs ECharts' layout and SVG rendering (0.25 s of
 * a full run's end on 2 cores).
 */
const drawn = new WeakMap<TimingSummary, readonly TimingChart[]>();

/** The run's timing charts, one per charted series that has data (none without timing); each timing is drawn once. */
export function timingCharts(timing: TimingSummary | undefined): readonly TimingChart[] {
  if (!timing) return [];
  const known = drawn.get(timing);
  if (known) return known;
  const out: TimingChart[] = [];
  for (const s of CHARTED) {
    const keys = Object.keys(timing[s] ?? {});
    if (keys.length === 0) continue;
    const f = (k: string) => timing[s][k]!;
    out.push({
      series: s,
      title: TITLES[s],
      svg: barChart(
        TITLES[s],
        keys.map((k) => `${k} (n ${f(k).n})`),
        [
          { name: 'p50', values: keys.map((k) => f(k).p50Ms), color: '#4a78b5' },
          { name: 'p95', values: keys.map((k) => f(k).p95Ms), color: '#e39c3a' },
        ],
      ),
    });
  }
  drawn.set(timing, out);
  return out;
}

/** The run's timing charts, one `<figure>` per charted series that has data; '' when none has. */
export function timingChartsSvg(timing: TimingSummary | undefined): string {
  return timingCharts(timing)
    .map((c) => `<figure>${c.svg}</figure>`)
    .join('\n');
}

/** compare's charts: per charted series, base and candidate medians and 95th percentiles side by side. */
export async function comparisonCharts(base: TimingSummary | undefined, cand: TimingSummary | undefined, _c?: unknown): Promise<string> {
  if (!base || !cand) return '';
  const out: string[] = [];
  for (const s of CHARTED) {
    const keys = [...new Set([...Object.keys(base[s] ?? {}), ...Object.keys(cand[s] ?? {})])].sort();
    if (keys.length === 0) continue;
    const v = (t: TimingSummary, k: string, q: 'p50Ms' | 'p95Ms') => t[s]?.[k]?.[q] ?? 0;
    out.push(
      `<figure>${barChart(TITLES[s], keys, [
        { name: 'base p50', values: keys.map((k) => v(base, k, 'p50Ms')), color: '#9fb8d9' },
        { name: 'candidate p50', values: keys.map((k) => v(cand, k, 'p50Ms')), color: '#2f5f9e' },
        { name: 'base p95', values: keys.map((k) => v(base, k, 'p95Ms')), color: '#f1c995' },
        { name: 'candidate p95', values: keys.map((k) => v(cand, k, 'p95Ms')), color: '#c9761a' },
      ])}</figure>`,
    );
  }
  return out.join('\n');
}
