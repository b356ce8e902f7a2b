/**
 * The spec documents in the reports folder (`spec/*.html`), so that a clause link in the Allure report
 * or the certification opens the clause's own words wherever the reports are read (a CI artifact,
 * a zip handed to a certifier), without the toolkit installed. Each heading keeps the anchor the
 * clause ids use (GitHub's rule, {@link headingAnchor}); the text is shown as written, not re-typeset.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLAUSE_DOCUMENTS, SPEC_BUNDLE_DIR, headingAnchor } from './allure-messages.ts';
import { SPEC_SOURCE_DIR } from './clause-text.ts';
import { writeReportFile } from './write.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** One Markdown document as an HTML page: headings with their anchors, every other line as written. */
export function specPage(title: string, markdown: string): string {
  const body: string[] = [];
  let text: string[] = [];
  const flush = () => {
    if (text.length > 0) body.push(`<pre>${esc(text.join('\n'))}</pre>`);
    text = [];
  };
  let fenced = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (/^```/.test(line)) fenced = !fenced;
    const h = fenced ? null : /^(#{1,6})\s+(.*)$/.exec(line);
    if (!h) {
      text.push(line);
      continue;
    }
    flush();
    const level = h[1]!.length;
    const id = headingAnchor(h[2]!);
    body.push(`<h${level} id="${esc(id)}"><a href="#${esc(id)}">${esc(h[2]!)}</a></h${level}>`);
  }
  flush();
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
pre{white-space:pre-wrap;font:inherit;margin:.3rem 0}h1,h2,h3,h4,h5,h6{margin:1.4rem 0 .3rem}
h1 a,h2 a,h3 a,h4 a,h5 a,h6 a{color:inherit;text-decoration:none}:target{background:#fff3bf}
</style></head><body>${body.join('\n')}</body></html>\n`;
}

/**
 * Writes `spec/<document>.html` into `dir` for each bundled spec document; a document not bundled
 * (a source checkout before `npm run generate`) is left out. Returns the files written.
 *
 * @throws ToolkitError PCC_REPORT_WRITE when a file cannot be written
 */
export function writeSpecBundle(dir: string, sourceDir = SPEC_SOURCE_DIR): string[] {
  const out: string[] = [];
  for (const file of Object.values(CLAUSE_DOCUMENTS)) {
    const name = file.replace(/\.md$/, '');
    const from = join(sourceDir, file);
    if (!existsSync(from)) continue;
    const to = join(dir, SPEC_BUNDLE_DIR, `${name}.html`);
    writeReportFile(to, specPage(name, readFileSync(from, 'utf8')));
    out.push(to);
  }
  return out;
}
