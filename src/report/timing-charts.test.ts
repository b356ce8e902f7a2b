/** The timing charts: one SVG per charted series with data, each run's timing drawn once for all its reports. */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { writeAllureTimingCharts } from './allure-charts.ts';
import { timingCharts, timingChartsSvg, warmCharts } from './timing-charts.ts';
import { figureOf, type TimingSummary } from './timing.ts';

const timing = (): TimingSummary => ({
  operations: {
    getConfig: figureOf([[12, 3]]),
    generateTransaction: figureOf([
      [40, 2],
      [90, 1],
    ]),
  },
  convergence: { SUCCESS: figureOf([[300, 4]]) },
  webhookDelay: {},
  webhookArrival: {},
  steps: {},
});

it('draws a chart per charted series with data, as SVG', () => {
  const charts = timingCharts(timing());
  expect(charts.map((c) => c.series)).toEqual(['operations', 'convergence']);
  for (const c of charts) expect(c.svg).toMatch(/^<svg[\s\S]*<\/svg>$/);
  expect(timingCharts(undefined)).toEqual([]);
});

it("draws a run's timing once: certification.html and the Allure attachments show the same drawing", () => {
  const t = timing();
  const first = timingCharts(t);
  expect(timingCharts(t)).toBe(first);
  expect(timingChartsSvg(t)).toBe(first.map((c) => `<figure>${c.svg}</figure>`).join('\n'));
  // Another run's timing (another object) is drawn anew, from its own figures.
  const other = timing();
  other.convergence = {};
  expect(timingCharts(other).map((c) => c.series)).toEqual(['operations']);
  const dir = mkdtempSync(join(tmpdir(), 'pcc-charts-'));
  try {
    writeAllureTimingCharts(dir, t);
    const svgs = readdirSync(dir)
      .filter((f) => f.endsWith('.svg'))
      .map((f) => readFileSync(join(dir, f), 'utf8'));
    expect(svgs.sort()).toEqual(first.map((c) => c.svg).sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A drawing's SVG without ECharts' instance numbers (class names count the instances made in a thread). */
const shape = (charts: readonly { svg: string }[]) => charts.map((c) => c.svg.replace(/zr\d+-cls-\d+/g, 'zr-cls'));

it('a warm drawer draws in its thread what this thread would draw, and once closed leaves the drawing here', async () => {
  const warm = warmCharts();
  try {
    const t = timing();
    await warm.draw(t);
    const drawnThere = timingCharts(t);
    expect(drawnThere.map((c) => c.series)).toEqual(['operations', 'convergence']);
    expect(shape(drawnThere)).toEqual(shape(timingCharts(timing())));
  } finally {
    await warm.close();
  }
  const after = timing();
  await warm.draw(after);
  expect(shape(timingCharts(after))).toEqual(shape(timingCharts(timing())));
});
