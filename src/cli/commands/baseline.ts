/**
 * `baseline write FILE --from REPORTS_DIR --expires 30d --reason TEXT [--ticket T]`: entries for a run's
 * findings, merged into FILE (made when missing), one per root: a finding that follows from another
 * (`followsFrom`) is known with its root and gets no entry of its own. Each entry is as narrow as its
 * finding (check, operation, clause, the message with its ids and amounts as wildcards): it knows that
 * defect, not every finding of the check. An entry already in the file is kept as it is unless `--renew` says to take the new expiry,
 * reason and ticket; none is ever widened.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolkitError } from '../../core/index.ts';
import { formatCommandHelp, parseCommandLine, type CommandSpec } from '../../config/index.ts';
import type { RunIo } from '../../engine/index.ts';
import {
  type Summary,
  type SummaryFinding,
  entryFor,
  foldFindings,
  mergeBaseline,
  readBaselineIfAny,
  writeBaseline,
} from '../../report/index.ts';
import { defineCommand } from '../command.ts';

/** `baseline write`: the file, the run it learns from, and what every entry carries. */
export const BASELINE_COMMAND = {
  name: 'baseline',
  synopsis: 'write <file> --from <dir> --expires <when> --reason <text> [flags]',
  about:
    "Writes known defects from a run's findings into <file> (JSON, or YAML for .yaml/.yml; made when missing, " +
    ('else merged into). One entry per defect (what follows from it is known with it), each as narrow ' +
      'as its finding. Use it with: payconnect-conformance run --baseline <file>'),
  positionals: { what: 'the action (write) and the baseline file' },
  sections: [
    {
      heading: 'Flags',
      flags: [
        {
          name: 'from',
          type: 'string',
          placeholder: '<dir>',
          description: 'The reports folder of the run whose findings become known (its summary.json)',
        },
        {
          name: 'expires',
          type: 'string',
          placeholder: '<when>',
          description:
            'When the entries expire: 30d, 6w (from today, at most 366 days) or a date YYYY-MM-DD; past it the run fails naming the entry',
        },
        {
          name: 'reason',
          type: 'string',
          placeholder: '<text>',
          description: 'Why the defects are known (shown beside each of them in every report)',
        },
        { name: 'ticket', type: 'string', placeholder: '<id>', description: 'The ticket that tracks the fix' },
        {
          name: 'check',
          type: 'string',
          multiple: true,
          placeholder: '<id>',
          description: 'Only the findings of this check; repeat for several',
          defaultText: 'every finding',
        },
        { name: 'failures-only', type: 'boolean', description: 'Only failures become entries', defaultText: 'warnings too' },
        { name: 'renew', type: 'boolean', description: 'Entries already in the file take the new expiry, reason and ticket' },
      ],
    },
  ],
} as const satisfies CommandSpec;

const HINT = 'run "payconnect-conformance baseline --help" for the usage';

const MAX_DAYS = 366;

/** The expiry date (YYYY-MM-DD) of `--expires`: days or weeks from `today`, or a date, within a year. */
export function expiryOf(text: string, today: Date): string {
  const rel = /^(\d{1,3})\s*([dw])$/.exec(text.trim());
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const start = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  let at: number;
  if (rel) at = start + Number(rel[1]) * (rel[2] === 'w' ? 7 : 1) * 86_400_000;
  else if (
    /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) &&
    !Number.isNaN(Date.parse(`${text.trim()}T00:00:00Z`)) &&
    day(new Date(`${text.trim()}T00:00:00Z`)) === text.trim()
  )
    at = Date.parse(`${text.trim()}T00:00:00Z`);
  else
    throw new ToolkitError(
      'PCC_USAGE',
      `--expires is ${JSON.stringify(text)}: not a number of days or weeks, nor a date`,
      'write 30d, 6w or a date such as 2026-12-31',
    );
  if (at < start)
    throw new ToolkitError(
      'PCC_USAGE',
      `--expires ${text} is in the past`,
      'give a date from today on: an entry that has expired fails the run',
    );
  if (at > start + MAX_DAYS * 86_400_000)
    throw new ToolkitError(
      'PCC_USAGE',
      `--expires ${text} is more than ${MAX_DAYS} days away`,
      'a known defect is looked at again within a year: give 90d, or a nearer date',
    );
  return day(new Date(at));
}

function readSummary(dir: string): Summary {
  const file = join(dir, 'summary.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ToolkitError(
      'PCC_USAGE',
      `--from ${dir}: ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      'give the reports folder of a run (run --reports <dir>)',
      { cause: e },
    );
  }
  try {
    const s = JSON.parse(text) as Summary;
    if (!Array.isArray(s.findings)) throw new Error('no "findings" list');
    return s;
  } catch (e) {
    throw new ToolkitError(
      'PCC_USAGE',
      `--from ${dir}: ${file} is not a run's summary (${(e as Error).message})`,
      'give the reports folder of a run (run --reports <dir>)',
      { cause: e },
    );
  }
}

export async function baselineCommand(argv: string[], _env: NodeJS.ProcessEnv, io: RunIo, today = new Date()): Promise<number> {
  const parsed = parseCommandLine(BASELINE_COMMAND, argv);
  const v = parsed.values;
  if (parsed.help) {
    io.stdout(formatCommandHelp(BASELINE_COMMAND));
    return 0;
  }
  const [action, file, ...extra] = parsed.positionals;
  if (action !== 'write')
    throw new ToolkitError(
      'PCC_USAGE',
      action === undefined ? 'baseline needs an action' : `baseline has no action "${action}"`,
      `use "baseline write <file> ..."; ${HINT}`,
    );
  if (!file) throw new ToolkitError('PCC_USAGE', 'baseline write needs the baseline file', HINT);
  if (extra.length > 0) throw new ToolkitError('PCC_USAGE', `unexpected argument ${JSON.stringify(extra[0])}`, HINT);
  for (const need of ['from', 'expires', 'reason'] as const) {
    if (!v[need]?.trim())
      throw new ToolkitError(
        'PCC_USAGE',
        `baseline write needs --${need}`,
        need === 'expires' ? 'every known defect expires: --expires 30d (or a date)' : HINT,
      );
  }
  const expires = expiryOf(v.expires!, today);
  // The file is read (and checked) before anything is written: a malformed one is left as it is.
  const existing = readBaselineIfAny(file);
  const summary = readSummary(v.from!);
  const checks = v.check ?? [];
  const pick = (f: SummaryFinding) =>
    (!v['failures-only'] || f.severity === 'failure') && (checks.length === 0 || checks.includes(f.check));
  // One entry per root: what follows from a chosen root is known by the root's entry (core/known-finding.ts).
  const chosen = foldFindings(summary.findings.filter(pick)).map((r) => r.finding);
  if (chosen.length === 0) {
    const ofChecks = checks.length > 0 ? ` of ${checks.join(', ')}` : '';
    io.stderr(
      `baseline: ${join(v.from!, 'summary.json')} has no ${v['failures-only'] ? 'failure' : 'finding'}${ofChecks}: ` +
        `nothing to write; ${file} is left as it was\n`,
    );
    return 1;
  }
  const meta = { reason: v.reason!.trim(), ...(v.ticket?.trim() ? { ticket: v.ticket.trim() } : {}), expires };
  const merged = mergeBaseline(
    existing,
    chosen.map((f) => entryFor(f, meta)),
    v.renew ?? false,
  );
  writeBaseline(file, merged.file);
  const kept = merged.kept > 0 ? `, ${merged.kept} already there and kept as they were (--renew takes the new expiry and reason)` : '';
  const renewed = merged.renewed > 0 ? `, ${merged.renewed} renewed` : '';
  io.stdout(
    `baseline ${file}: ${merged.added} entr${merged.added === 1 ? 'y' : 'ies'} added (expiring ` +
      `${expires})${kept}${renewed}; ` +
      `${merged.file.entries.length} in all\n`,
  );
  io.stdout(`use it with: payconnect-conformance run --baseline ${file}\n`);
  return 0;
}

export default defineCommand({ spec: BASELINE_COMMAND, run: (argv, env, io) => baselineCommand(argv, env, io) });
