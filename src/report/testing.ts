/** Test helpers of this folder: hand-built records, reports folders, a strict little XML reader. Not exported by the barrel. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { Finding } from '../core/index.ts';
import { prepareReportsDir } from './write.ts';
import type { RunRecord, TestRecord } from './records.ts';
import type { RunInfo } from './run-info.ts';

/** A test record with sensible defaults (a passed payment test). */
export function testRecord(over: Partial<TestRecord> & { scenario?: string } = {}): TestRecord {
  const capability = over.capability ?? 'payment';
  const { scenario = 'a scenario', ...rest } = over;
  return {
    name: `${capability} > ${scenario}`,
    capability,
    clause: 'spec#post-v1pay-connecttransactionsgenerate',
    file: `/pkg/suites/${capability}/${capability}.suite.ts`,
    state: 'passed',
    durationMs: 12,
    findings: [],
    errors: [],
    parameters: {},
    exchanges: [],
    deliveries: [],
    ...rest,
    exchangeCount: rest.exchangeCount ?? rest.exchanges?.length ?? 0,
  };
}

/** A maker of fresh, prepared reports folders, removed after the calling test file's tests. */
export function reportsDirs(prefix: string): () => Promise<string> {
  const made: string[] = [];
  afterAll(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return async () => {
    const base = mkdtempSync(join(tmpdir(), prefix));
    made.push(base);
    const d = join(base, 'reports');
    await prepareReportsDir(d);
    return d;
  };
}

/** A finding. */
export function finding(over: Partial<Finding> = {}): Finding {
  return {
    check: 'invariant.total-amount',
    severity: 'failure',
    clause: 'spec#transaction-print-slip',
    message: 'total_amount 101 != amount 100 + tip_amount 0',
    ...over,
  };
}

/** A run of `tests`. */
export function runRecord(tests: TestRecord[], unhandled: string[] = []): RunRecord {
  return { tests, unhandled, startedAt: '2026-01-02T03:04:05.000Z', durationMs: 1234 };
}

/** Run facts for the reports. */
export function runInfo(over: Partial<RunInfo> = {}): RunInfo {
  return {
    tool: { name: 'payconnect-conformance', version: '0.1.0' },
    target: { kind: 'sim', baseUrl: 'http://127.0.0.1:1234' },
    profile: 'sandbox',
    terminalMode: 'auto',
    seed: 42,
    strict: false,
    integratorId: 'sim-integrator',
    suitesSelected: [],
    contract: { file: 'contracts/pay-connect.openapi.yaml', sha256: 'ab'.repeat(32) },
    faults: [],
    startedAt: '2026-01-02T03:04:05.000Z',
    finishedAt: '2026-01-02T03:05:05.000Z',
    ...over,
  };
}

/** An element of {@link parseXml}. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string, where: string): string {
  if (/[<]/.test(s)) throw new Error(`"<" in ${where}`);
  return s.replace(/&([^;]*);?/g, (m, e: string) => {
    if (!m.endsWith(';')) throw new Error(`bare "&" in ${where}`);
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    const v = ENTITIES[e];
    if (v === undefined) throw new Error(`unknown entity &${e}; in ${where}`);
    return v;
  });
}

/**
 * Parses the XML the reports write (elements, attributes, text; no DTD, comments or CDATA) and
 * throws on anything that is not well-formed: a mismatched tag, an unescaped `<` or `&`, a duplicate
 * attribute, a character XML 1.0 forbids, a second root.
 */
export function parseXml(xml: string): XmlElement {
  const bad = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.exec(xml);
  if (bad) throw new Error(`character U+${bad[0].charCodeAt(0).toString(16)} at ${bad.index}`);
  let s = xml.replace(/^\uFEFF?<\?xml[^?]*\?>/, '');
  const root: XmlElement = { name: '#document', attrs: {}, children: [], text: '' };
  const stack = [root];
  const tag = /^<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*"[^"]*")*)\s*(\/?)>/;
  while (s.length > 0) {
    const lt = s.indexOf('<');
    const text = lt < 0 ? s : s.slice(0, lt);
    const top = stack[stack.length - 1]!;
    if (text.length > 0) {
      if (top === root && text.trim() !== '') throw new Error('text outside the root element');
      top.text += decode(text, `<${top.name}>`);
    }
    if (lt < 0) break;
    s = s.slice(lt);
    const m = tag.exec(s);
    if (!m) throw new Error(`malformed tag near ${JSON.stringify(s.slice(0, 40))}`);
    const [whole, close, name, attrText, selfClose] = m;
    s = s.slice(whole.length);
    if (close) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of attrText!.matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*"([^"]*)"/g)) {
      if (a[1]! in attrs) throw new Error(`duplicate attribute ${a[1]} on <${name}>`);
      attrs[a[1]!] = decode(a[2]!, `attribute ${a[1]}`);
    }
    const el: XmlElement = { name: name!, attrs, children: [], text: '' };
    if (top === root && root.children.length > 0) throw new Error('a second root element');
    top.children.push(el);
    if (!selfClose) stack.push(el);
  }
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1]!.name}> is not closed`);
  const doc = root.children[0];
  if (!doc) throw new Error('no root element');
  return doc;
}

/** Every descendant element named `name`. */
export function findAll(el: XmlElement, name: string): XmlElement[] {
  return el.children.flatMap((c) => [...(c.name === name ? [c] : []), ...findAll(c, name)]);
}
