/**
 * The spec's own words for a clause id, from the documents bundled with the package
 * (contracts/spec/*.md, copied from the spec by `npm run generate`): the report attaches them to each
 * test, so whoever reads the verdict reads the clause, wherever the toolkit is installed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLAUSE_DOCUMENTS, headingAnchor } from './allure-messages.ts';

/** Where the bundled spec documents are (the same depth from src/ and dist/). */
export const SPEC_SOURCE_DIR = fileURLToPath(new URL('../../contracts/spec/', import.meta.url));

const sections = new Map<string, Map<string, string>>();

/** A clause's text is cut (at a line) after this many characters: a chapter heading's section is long. */
export const CLAUSE_TEXT_CHARS = 2000;

/**
 * The text of a clause (`spec#anchor`, `profile#…`, `sandbox#…`): its heading and everything up to the
 * next heading of the same or a higher level, from the bundled document, cut after `maxChars` at a
 * line end with a pointer to the whole document; undefined when not found.
 */
export function clauseText(clause: string, sourceDir = SPEC_SOURCE_DIR, maxChars = CLAUSE_TEXT_CHARS): string | undefined {
  const [source = '', anchor = ''] = clause.split('#');
  const file = CLAUSE_DOCUMENTS[source];
  if (!file || !anchor) return undefined;
  const key = join(sourceDir, file);
  let byAnchor = sections.get(key);
  if (!byAnchor) {
    byAnchor = new Map();
    sections.set(key, byAnchor);
    if (existsSync(key)) {
      const lines = readFileSync(key, 'utf8').split(/\r?\n/);
      lines.forEach((line, i) => {
        const h = /^(#{1,6})\s+(.*)$/.exec(line);
        if (!h) return;
        let end = i + 1;
        while (end < lines.length && !(/^(#{1,6})\s/.exec(lines[end]!) && /^(#{1,6})\s/.exec(lines[end]!)![1]!.length <= h[1]!.length))
          end++;
        byAnchor!.set(headingAnchor(h[2]!), `${file} — ${lines.slice(i, end).join('\n').trim()}\n`);
      });
    }
  }
  const text = byAnchor.get(anchor);
  if (text === undefined || text.length <= maxChars) return text;
  const end = text.lastIndexOf('\n', maxChars);
  return `${text.slice(0, end > 0 ? end : maxChars)}\n… (cut: the whole section is in ${file}, under contracts/spec/ where the toolkit is installed)\n`;
}
