/** A comparison as the console table and as compare.html. */
import { SHAPE_KINDS } from './shapes.ts';
import type { Comparison, FindingRef } from './diff.ts';

const labelText = (l: Record<string, string>) =>
  Object.keys(l).length === 0
    ? '(no labels)'
    : Object.entries(l)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
const findingText = (f: FindingRef) => `[${f.check}] ${f.message}`;
const ms = (n: number) => `${n} ms`;

/** The console's table. */
export function compareTable(c: Comparison): string {
  const out: string[] = [];
  out.push(
    `compare: ${labelText(c.candidate.labels)} (${c.candidate.dir}, ${c.candidate.verdict}) against ` +
      `${labelText(c.base.labels)} (${c.base.dir}, ${c.base.verdict})`,
  );
  out.push(`tests: ${c.tests.flipped.length} changed, ${c.tests.same} the same`);
  for (const f of c.tests.flipped)
    out.push(
      `  ${f.change.padEnd(20)} ${f.test}${f.finding ? `\n  ${''.padEnd(20)}   ${findingText(f.finding)}` : f.why ? `\n  ${''.padEnd(20)}   ${f.why}` : ''}`,
    );
  out.push(`findings: ${c.findings.new.length} new, ${c.findings.gone.length} gone, ${c.findings.persisting.length} persisting`);
  for (const f of c.findings.new) out.push(`  new   ${f.severity === 'failure' ? 'FAIL' : 'WARN'} ${findingText(f)} (${f.test})`);
  for (const f of c.findings.gone) out.push(`  gone  ${findingText(f)}`);
  const shapeCount = (s: Comparison['shapes']['appeared']) => SHAPE_KINDS.reduce((n, k) => n + s[k].length, 0);
  out.push(`shapes: ${shapeCount(c.shapes.appeared)} appeared, ${shapeCount(c.shapes.disappeared)} disappeared`);
  for (const [word, s] of [
    ['+', c.shapes.appeared],
    ['-', c.shapes.disappeared],
  ] as const)
    for (const k of SHAPE_KINDS) for (const item of s[k].slice(0, 20)) out.push(`  ${word} ${k.padEnd(8)} ${item}`);
  out.push(`timing: ${c.timing.regressions.length} regressions, ${c.timing.improvements.length} improvements (${c.timing.method})`);
  if (c.timing.pace >= 1.25 || c.timing.pace <= 0.8)
    out.push(
      `  pace: the candidate's answers took ${c.timing.pace}x as long as the base's across the board ` +
        `(a busier or quieter runner, or the whole service); changes judged beyond that`,
    );
  for (const [word, list] of [
    ['slower', c.timing.regressions],
    ['quicker', c.timing.improvements],
  ] as const) {
    for (const t of list)
      out.push(
        `  ${word.padEnd(7)} ${`${t.series} ${t.key}`.padEnd(44)} p50 ${ms(t.base.p50Ms)} -> ${ms(t.candidate.p50Ms)}, ` +
          `p95 ${ms(t.base.p95Ms)} -> ${ms(t.candidate.p95Ms)} (n ${t.base.n}/${t.candidate.n}, p=${t.p}, A=${t.a})`,
      );
  }
  const paced = c.timing.operatorPaced;
  if (paced.manual.length > 0) {
    out.push(`  ${operatorPacedNote(c)}${paced.changes.length > 0 ? ':' : ''}`);
    for (const t of paced.changes)
      out.push(
        `  ${t.kind.padEnd(7)} ${`${t.series} ${t.key}`.padEnd(44)} p50 ${ms(t.base.p50Ms)} -> ${ms(t.candidate.p50Ms)}, ` +
          `p95 ${ms(t.base.p95Ms)} -> ${ms(t.candidate.p95Ms)} (n ${t.base.n}/${t.candidate.n}, operator-paced)`,
      );
  }
  out.push(c.regressed ? 'compare: REGRESSED' : c.shapesChanged ? 'compare: no regression (shapes changed)' : 'compare: no regression');
  return `${out.join('\n')}\n`;
}

/** What the comparison says of a manual session's timings (see diff.ts OPERATOR_PACED). */
export function operatorPacedNote(c: Comparison): string {
  const p = c.timing.operatorPaced;
  const who = p.manual.length === 2 ? 'both runs were manual sessions' : `the ${p.manual[0]} was a manual session`;
  return `operator-paced, never a regression (${who}: ${p.series.join(', ')} wait for the person at the terminal): ${p.changes.length} changed`;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The section a certification carries (markdown-free HTML, small): the verdict of the comparison and its counts. */
/** How many shapes appeared or disappeared, of every kind. */
function shapeChangeCount(c: Comparison): number {
  return SHAPE_KINDS.reduce((n, k) => n + c.shapes.appeared[k].length + c.shapes.disappeared[k].length, 0);
}

export function compareSectionHtml(c: Comparison): string {
  const list = (items: string[]) =>
    items.length > 0
      ? `<ul>${items
          .slice(0, 20)
          .map((i) => `<li>${esc(i)}</li>`)
          .join('')}${items.length > 20 ? `<li>… ${items.length - 20} more in compare.json</li>` : ''}</ul>`
      : '';
  const paced = c.timing.operatorPaced.manual.length > 0 ? `; ${esc(operatorPacedNote(c))}` : '';
  return (
    `<h2>Compared with ${esc(labelText(c.base.labels))}</h2><p>${c.regressed ? '<b>Regressed</b>' : 'No regression'} against ${esc(c.base.dir)}: ` +
    `${c.tests.flipped.length} tests changed, ${c.findings.new.length} new findings, ${c.findings.gone.length} gone, ` +
    `${shapeChangeCount(c)} shape changes, ` +
    (`${c.timing.regressions.length} timing regressions, ${c.timing.improvements.length} improvements${paced} ` +
      `(compare.json has every item).</p>`) +
    list([
      ...c.tests.flipped.map((f) => `${f.change} ${f.test}${f.finding ? `: [${f.finding.check}] ${f.finding.message}` : ''}`),
      ...c.findings.new.map((f) => `new finding ${findingText(f)}`),
      ...c.timing.regressions.map(
        (t) =>
          `slower ${t.series} ${t.key}: p50 ${t.base.p50Ms} -> ${t.candidate.p50Ms} ms, p95 ${t.base.p95Ms} -> ${t.candidate.p95Ms} ms`,
      ),
    ])
  );
}

/** The certification's section in Markdown: the same as {@link compareSectionHtml}. */
export function compareSectionMarkdown(c: Comparison): string {
  const items = [
    ...c.tests.flipped.map((f) => `${f.change} ${f.test}${f.finding ? `: [${f.finding.check}] ${f.finding.message}` : ''}`),
    ...c.findings.new.map((f) => `new finding ${findingText(f)}`),
    ...c.timing.regressions.map(
      (t) => `slower ${t.series} ${t.key}: p50 ${t.base.p50Ms} -> ${t.candidate.p50Ms} ms, p95 ${t.base.p95Ms} -> ${t.candidate.p95Ms} ms`,
    ),
  ];
  const paced = c.timing.operatorPaced.manual.length > 0 ? `; ${operatorPacedNote(c)}` : '';
  return [
    `## Compared with ${labelText(c.base.labels)}`,
    '',
    `${c.regressed ? '**Regressed**' : 'No regression'} against ${c.base.dir}: ${c.tests.flipped.length} tests changed, ` +
      `${c.findings.new.length} new findings, ${c.findings.gone.length} gone, ${shapeChangeCount(c)} shape changes, ` +
      (`${c.timing.regressions.length} timing regressions, ${c.timing.improvements.length} improvements${paced} ` +
        `(compare.json has every item).`),
    '',
    ...items.slice(0, 20).map((i) => `- ${i.replace(/\|/g, '\\|')}`),
    '',
  ].join('\n');
}

/** compare.html's style sheet. */
const COMPARE_STYLE =
  'body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;margin-bottom:1em}' +
  'td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left;font-size:.9em}\n' +
  '.verdict{font-size:1.3em;font-weight:bold}.bad{color:#b00}.good{color:#070}.none{color:#666}.charts{display:flex;flex-wrap:wrap;gap:1em}';

/** A table of `rows` under `head`, every cell escaped; a "none" when there is no row. */
function htmlTable(head: string[], rows: string[][]): string {
  if (rows.length === 0) return '<p class="none">none</p>';
  const headRow = `<tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>`;
  return `<table>${headRow}${rows.map((r) => `<tr>${r.map((x) => `<td>${esc(x)}</td>`).join('')}</tr>`).join('')}</table>`;
}

/** compare.html: everything of compare.json as tables, charts (SVG) where given. */
export function compareHtml(c: Comparison, charts = ''): string {
  const table = htmlTable;
  const shapes = SHAPE_KINDS.flatMap((k) => [
    ...c.shapes.appeared[k].map((i) => ['appeared', k, i]),
    ...c.shapes.disappeared[k].map((i) => ['disappeared', k, i]),
  ]);
  const timingRows = (word: string, list: Comparison['timing']['regressions']) =>
    list.map((t) => [
      word,
      t.series,
      t.key,
      `${t.base.p50Ms} -> ${t.candidate.p50Ms}`,
      `${t.base.p95Ms} -> ${t.candidate.p95Ms}`,
      `${t.base.n} / ${t.candidate.n}`,
      String(t.p),
      String(t.a),
    ]);
  const runRows = [['base', c.base], ['candidate', c.candidate] as const]
    .map(([w, s]) =>
      typeof s === 'string'
        ? ''
        : `<tr><th>${w}</th><td>${esc(labelText(s.labels))}</td><td>${esc(s.dir)}</td><td>${esc(s.verdict)}</td>` +
          `<td>${esc(s.startedAt ?? '')}</td><td>${s.tests}</td></tr>`,
    )
    .join('');
  const pacedNote = c.timing.operatorPaced.manual.length > 0 ? ` ${esc(operatorPacedNote(c))}.` : '';
  const timingTable = table(
    ['', 'series', 'key', 'p50 ms', 'p95 ms', 'n', 'p', 'A'],
    [
      ...timingRows('slower', c.timing.regressions),
      ...timingRows('quicker', c.timing.improvements),
      ...c.timing.operatorPaced.changes.map((t) => timingRows(`${t.kind} (operator-paced)`, [t])[0]!),
    ],
  );
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>compare: ${esc(labelText(c.candidate.labels))} against ${esc(labelText(c.base.labels))}</title>
<style>${COMPARE_STYLE}</style></head><body>
<h1>What changed</h1>
<table><tr><th></th><th>labels</th><th>reports</th><th>verdict</th><th>started</th><th>tests</th></tr>
${runRows}</table>
<p class="verdict ${c.regressed ? 'bad' : 'good'}">${c.regressed ? 'REGRESSED' : 'No regression'}${c.shapesChanged ? ' (shapes changed)' : ''}</p>
<h2>Tests whose outcome changed</h2>${table(
    ['change', 'test', 'finding or reason'],
    c.tests.flipped.map((f) => [f.change, f.test, f.finding ? findingText(f.finding) : (f.why ?? '')]),
  )}
<h2>Findings</h2>${table(
    ['', 'severity', 'check', 'message', 'test'],
    [
      ...c.findings.new.map((f) => ['new', f]),
      ...c.findings.gone.map((f) => ['gone', f]),
      ...c.findings.persisting.map((f) => ['persisting', f]),
    ].map(([w, f]) => [
      w as string,
      (f as FindingRef).severity,
      (f as FindingRef).check,
      (f as FindingRef).message,
      (f as FindingRef).test,
    ]),
  )}
<h2>Shapes</h2>${table(['', 'kind', 'item'], shapes)}
<h2>Timing</h2><p>${esc(c.timing.method)}. Pace of the candidate's answers against the base's: ${c.timing.pace}x.${pacedNote}</p>${timingTable}
${charts ? `<div class="charts">${charts}</div>` : ''}
</body></html>
`;
}
