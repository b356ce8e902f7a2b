/**
 * Where a quoted sentence stands in the documents bundled in contracts/spec/ (copied from the spec by
 * `npm run generate`): which document, under which headings (the nearest first, then the ones above
 * it), matched verbatim with only white space and line breaks normalised. The tests of the rules'
 * quotes (src/checks/rule-quotes.test.ts) and of the invalid inputs' reasons use it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLAUSE_DOCUMENTS, headingAnchor } from '../src/report/allure-messages.ts';
import { SPEC_SOURCE_DIR } from '../src/report/clause-text.ts';

/** Where a sentence was found. */
export interface Located {
  /** The clause source: `spec`, `profile` or `sandbox`. */
  source: string;
  /** The anchors of the headings it is under, the nearest first (`events`, then the document's title). */
  anchors: string[];
}

/** White space and line breaks as one space: the only difference a quote may have from its document. */
export const normaliseSpace = (s: string): string => s.replace(/\s+/g, ' ').trim();

interface Block {
  source: string;
  anchors: string[];
  text: string;
}

let blocks: Block[] | undefined;

/** Each document cut at its headings: the text under a heading (to the next one) with the headings above it. */
function documentBlocks(dir = SPEC_SOURCE_DIR): Block[] {
  if (blocks) return blocks;
  blocks = [];
  for (const [source, file] of Object.entries(CLAUSE_DOCUMENTS)) {
    const stack: { level: number; anchor: string }[] = [];
    let lines: string[] = [];
    const flush = () => {
      if (lines.length > 0) blocks!.push({ source, anchors: stack.map((h) => h.anchor).reverse(), text: normaliseSpace(lines.join('\n')) });
      lines = [];
    };
    for (const line of readFileSync(join(dir, file), 'utf8').split(/\r?\n/)) {
      const h = /^(#{1,6})\s+(.*)$/.exec(line);
      if (!h) {
        lines.push(line);
        continue;
      }
      flush();
      while (stack.length > 0 && stack.at(-1)!.level >= h[1]!.length) stack.pop();
      stack.push({ level: h[1]!.length, anchor: headingAnchor(h[2]!) });
    }
    flush();
  }
  return blocks;
}

/** Every place the sentence stands in the documents (none: it is not quoted verbatim). */
export function locate(sentence: string): Located[] {
  const q = normaliseSpace(sentence);
  if (q === '') return [];
  return documentBlocks()
    .filter((b) => b.text.includes(q))
    .map((b) => ({ source: b.source, anchors: b.anchors }));
}

/** Whether clause `source#anchor` is a heading `sentence` stands under (its nearest or one above it). */
export function isUnder(sentence: string, clause: string): boolean {
  const [source, anchor] = clause.split('#');
  return locate(sentence).some((l) => l.source === source && l.anchors.includes(anchor!));
}
