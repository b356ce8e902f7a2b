// The dependency rules of ARCHITECTURE.md as an eslint rule: its "Allowed imports" table is read when
// the config loads, so the table and the lint cannot drift. The rule is an allow-list that fails
// closed: an import across folders is an error unless the table lets the importing folder use the
// imported one, and a folder of src/ the table does not name is an error of its own (add its row).
// Hand-written because eslint's no-restricted-imports (a deny-list of globs) cannot fail closed, and
// eslint-plugin-boundaries, which could, would keep its own copy of the table.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

const START = '<!-- layering:start -->';
const END = '<!-- layering:end -->';

/**
 * Reads the table between the layering markers: `| folder | what it may import | why |`. The second
 * cell is a comma-separated list of folders of src/ (`core`), single files (`transcript/recorder.ts`)
 * or `everything` / `everything but cli, engine`; `nothing` for none.
 * @returns {Map<string, { all: boolean, except: Set<string>, allow: Set<string> }>}
 */
export function readLayering(markdown) {
  const from = markdown.indexOf(START);
  const to = markdown.indexOf(END);
  if (from < 0 || to < from) throw new Error(`ARCHITECTURE.md has no table between ${START} and ${END}`);
  const rows = new Map();
  for (const line of markdown.slice(from + START.length, to).split('\n')) {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim().replaceAll('`', ''));
    if (cells.length < 2 || /^-+$/.test(cells[0]) || cells[0].toLowerCase() === 'folder') continue;
    const [folder, may] = cells;
    const words = may.toLowerCase();
    const list = (s) =>
      new Set(
        s
          .split(',')
          .map((w) => w.trim())
          .filter((w) => w && w !== 'nothing'),
      );
    if (rows.has(folder)) throw new Error(`ARCHITECTURE.md's layering table names ${folder} twice`);
    if (words.startsWith('everything')) {
      const but = may.replace(/^everything\s*(but)?/i, '');
      rows.set(folder, { all: true, except: list(but), allow: new Set() });
    } else rows.set(folder, { all: false, except: new Set(), allow: list(may) });
  }
  return rows;
}

/**
 * The unit a file belongs to, for the table: a folder of src/ (`core`), `index.ts` (the barrel), or a
 * top-level folder (`suites`, `generators`); undefined for anything else.
 */
export function unitOf(root, file) {
  const rel = relative(root, file).split(sep);
  if (rel[0] === 'src' && rel.length >= 2) return rel[1];
  if (rel[0] === 'suites' || rel[0] === 'generators') return rel[0];
  return undefined;
}

/** Why `importer` may not import `target` (both absolute paths), or undefined when it may. */
export function verdict(root, rows, importer, target) {
  const from = unitOf(root, importer);
  if (from === undefined) return undefined;
  const relTarget = relative(root, target).split(sep);
  if (relTarget[0] !== 'src' || relTarget.length < 2) return undefined;
  const to = relTarget[1];
  if (from === to) return undefined;
  const row = rows.get(from);
  if (!row) return `${from} has no row in ARCHITECTURE.md's layering table: add one saying what it may import`;
  if (to !== 'index.ts' && !rows.has(to))
    return `src/${to} has no row in ARCHITECTURE.md's layering table: add one saying what it may import`;
  const file = relTarget.slice(1).join('/');
  const ok = row.all ? !row.except.has(to) : row.allow.has(to) || row.allow.has(file);
  if (ok) return undefined;
  const may = row.all ? `everything but ${[...row.except].join(', ')}` : [...row.allow].join(', ') || 'nothing';
  return (
    `${from === 'suites' || from === 'generators' ? from : `src/${from}`} may not import src/${file} ` +
    `(ARCHITECTURE.md: it may import ${may})`
  );
}

/** Rows of folders beside src/ (unitOf): `everything` means the folders of src/, not these. */
const OUTSIDE_SRC = new Set(['suites', 'generators']);

/**
 * A cycle among the table's rows, as the rooms along it (`['engine', 'receiver-check', 'engine']`), or
 * undefined when there is none. A row that lists a room (or a file of it) leads to that room; an
 * `everything` row leads to every row of src/ that is not itself `everything` (cli and the barrel sit on top:
 * nothing below may list them), but for what it excepts.
 * @param {ReturnType<typeof readLayering>} rows
 * @returns {string[] | undefined}
 */
export function cycleOf(rows) {
  const edges = new Map();
  for (const [from, row] of rows) {
    const to = row.all
      ? [...rows.keys()].filter((r) => r !== from && !OUTSIDE_SRC.has(r) && !rows.get(r).all && !row.except.has(r))
      : [...row.allow].map((a) => a.split('/')[0]).filter((r) => r !== from && rows.has(r));
    edges.set(from, to);
  }
  const state = new Map(); // 1 on the path, 2 done
  const path = [];
  const visit = (room) => {
    if (state.get(room) === 2) return undefined;
    if (state.get(room) === 1) return [...path.slice(path.indexOf(room)), room];
    state.set(room, 1);
    path.push(room);
    for (const next of edges.get(room) ?? []) {
      const found = visit(next);
      if (found) return found;
    }
    path.pop();
    state.set(room, 2);
    return undefined;
  };
  for (const room of rows.keys()) {
    const found = visit(room);
    if (found) return found;
  }
  return undefined;
}

/** The eslint plugin: `layering/allowed-imports`, configured from ARCHITECTURE.md under `root`. */
export function layeringPlugin(root) {
  const rows = readLayering(readFileSync(resolve(root, 'ARCHITECTURE.md'), 'utf8'));
  const cycle = cycleOf(rows);
  if (cycle)
    throw new Error(
      `ARCHITECTURE.md's layering table has a cycle: ${cycle.join(' -> ')}: a room may not reach itself through what it may import`,
    );
  const srcFolders = new Set(
    readdirSync(resolve(root, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name),
  );
  for (const folder of srcFolders) {
    if (!rows.has(folder))
      throw new Error(`src/${folder} has no row in ARCHITECTURE.md's layering table: add one saying what it may import`);
  }
  const rule = {
    meta: { type: 'problem', schema: [], docs: { description: "imports across src/'s folders only as ARCHITECTURE.md's table allows" } },
    create(context) {
      const file = context.filename;
      const check = (node, source) => {
        if (typeof source !== 'string' || !source.startsWith('.')) return;
        const why = verdict(root, rows, file, resolve(dirname(file), source));
        if (why) context.report({ node, message: why });
      };
      const fromSource = (node) => check(node, node.source?.value);
      return {
        ImportDeclaration: fromSource,
        ExportNamedDeclaration: fromSource,
        ExportAllDeclaration: fromSource,
        ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source.value : undefined),
      };
    },
  };
  return { rules: { 'allowed-imports': rule } };
}
