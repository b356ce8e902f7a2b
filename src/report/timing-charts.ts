/**
 * Timing as charts (SVG in the file, readable offline): answer time per operation, convergence per
 * final status, webhook delay per event; for compare, base against candidate. Drawn by Apache ECharts'
 * server-side renderer (`renderer: 'svg', ssr: true`: an SVG string in Node, no browser, no DOM),
 * loaded only when a chart is drawn.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { TimingSeriesName } from '../core/index.ts';
import type { TimingSummary } from './timing.ts';

type ECharts = typeof import('echarts');
/**
 * ECharts' full build, minified (a path its package exports): the same charts, SVG for SVG, as the
 * unminified `require('echarts')`, loaded in 123 ms of CPU instead of 150 (medians of 5), in every run
 * that writes Allure results.
 */
const ECHARTS = 'echarts/dist/echarts.min';
let loaded: ECharts | undefined;
const echarts = (): ECharts => (loaded ??= createRequire(import.meta.url)(ECHARTS) as ECharts);

const TITLES: Record<TimingSeriesName, string> = {
  operations: 'Answer time per operation (ms)',
  convergence: 'Convergence: request to final status (ms)',
  webhookDelay: 'Webhook delay: arrival minus first poll sight (ms; < 0 webhook first)',
  webhookArrival: 'Webhook arrival: request to webhook (ms)',
  steps: 'Terminal steps (ms)',
};

/** The series a report charts, in order. */
export const CHARTED: readonly TimingSeriesName[] = ['operations', 'convergence', 'webhookDelay'];

/** What ECharts draws one chart from: its size and option (plain data, so a thread can draw it too). */
interface ChartSpec {
  width: number;
  height: number;
  option: Record<string, unknown>;
}

/** Draws `spec` as an SVG document, in this thread. */
function draw(spec: ChartSpec): string {
  const chart = echarts().init(null, null, { renderer: 'svg', ssr: true, width: spec.width, height: spec.height });
  try {
    chart.setOption(spec.option);
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** One horizontal bar chart: a row per key, a bar per named value list. */
function barChart(title: string, keys: string[], bars: { name: string; values: number[]; color: string }[]): string {
  return draw(barChartSpec(title, keys, bars));
}

/** The {@link ChartSpec} of {@link barChart}. */
function barChartSpec(title: string, keys: string[], bars: { name: string; values: number[]; color: string }[]): ChartSpec {
  const height = Math.max(160, 70 + keys.length * (bars.length * 9 + 8));
  return {
    width: 560,
    height,
    option: {
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
    },
  };
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

/** The charts of a run's timing, to be drawn: one per charted series that has data. */
function timingChartSpecs(timing: TimingSummary): { series: TimingSeriesName; title: string; spec: ChartSpec }[] {
  return CHARTED.filter((s) => Object.keys(timing[s] ?? {}).length > 0).map((s) => {
    const keys = Object.keys(timing[s]);
    const f = (k: string) => timing[s][k]!;
    return {
      series: s,
      title: TITLES[s],
      spec: barChartSpec(
        TITLES[s],
        keys.map((k) => `${k} (n ${f(k).n})`),
        [
          { name: 'p50', values: keys.map((k) => f(k).p50Ms), color: '#4a78b5' },
          { name: 'p95', values: keys.map((k) => f(k).p95Ms), color: '#e39c3a' },
        ],
      ),
    };
  });
}

/** The run's timing charts, one per charted series that has data (none without timing); each timing is drawn once. */
export function timingCharts(timing: TimingSummary | undefined): readonly TimingChart[] {
  if (!timing) return [];
  const known = drawn.get(timing);
  if (known) return known;
  const out = timingChartSpecs(timing).map((c) => ({ series: c.series, title: c.title, svg: draw(c.spec) }));
  drawn.set(timing, out);
  return out;
}

/**
 * What a chart thread runs (`eval`, CommonJS): loads ECharts (given as a resolved path), then draws
 * each list of {@link ChartSpec}s it is sent and answers their SVG documents, or `{ error }`.
 */
const CHART_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const echarts = require(workerData.echarts);
parentPort.on('message', (specs) => {
  try {
    parentPort.postMessage(specs.map((spec) => {
      const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: spec.width, height: spec.height });
      try { chart.setOption(spec.option); return chart.renderToSVGString(); } finally { chart.dispose(); }
    }));
  } catch (e) {
    parentPort.postMessage({ error: String(e && e.stack || e) });
  }
});
`;

/**
 * A chart drawer started ahead of its work, in a thread of its own: ECharts' module loads and warms
 * up (0.6 s of a full run's end on 2 cores, under load) while the tests mostly wait, without holding
 * up the run's event loop (the embedded simulator answers on it). Give it a run's timing once the
 * summary is made: {@link timingCharts} then returns what it drew. A thread that failed leaves the
 * drawing to this thread, as without it.
 */
export interface WarmCharts {
  /** Draws `timing`'s charts in the thread, for {@link timingCharts}; never rejects. */
  draw(timing: TimingSummary | undefined): Promise<void>;
  /** Ends the thread; resolves once it is gone. */
  close(): Promise<void>;
}

/** Starts a {@link WarmCharts}. */
export function warmCharts(): WarmCharts {
  const thread = new Worker(CHART_THREAD, { eval: true, workerData: { echarts: createRequire(import.meta.url).resolve(ECHARTS) } });
  // A run that never draws does not wait for it; an error ends it, and draw() then draws here.
  thread.unref();
  // Failed or ended: draw() leaves the drawing to this thread.
  let gone = false;
  thread.on('error', () => (gone = true));
  thread.on('exit', () => (gone = true));
  return {
    async draw(timing) {
      if (!timing || drawn.has(timing) || gone) return;
      const charts = timingChartSpecs(timing);
      const svgs = await new Promise<unknown>((resolve) => {
        const done = (v: unknown) => {
          thread.off('message', done);
          thread.off('error', done);
          thread.off('exit', done);
          resolve(v);
        };
        thread.on('message', done);
        thread.on('error', done);
        thread.on('exit', done);
        thread.postMessage(charts.map((c) => c.spec));
      });
      if (!Array.isArray(svgs) || svgs.length !== charts.length) return;
      drawn.set(
        timing,
        charts.map((c, i) => ({ series: c.series, title: c.title, svg: String(svgs[i]) })),
      );
    },
    async close() {
      gone = true;
      await thread.terminate();
    },
  };
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
