/**
 * Provider verification with the pact-js Verifier: every interaction of the pact files is replayed
 * against the target with its provider state set up through the public API (provider-states.ts),
 * the real credentials put in by the request filter, and each webhook message produced for real
 * (message-providers.ts). The result is a report per interaction, every string of it redacted.
 */
import { Verifier } from '@pact-foundation/pact';
import { Redactor } from '../../client/index.ts';
import { isToolkitError } from '../../core/index.ts';
import { messageProvider } from './message-providers.ts';
import { webhookMessages } from '../consumer/messages.ts';
import { readAnyPact } from '../common/any-pact.ts';
import { learnPactSecrets } from '../check/check-pact.ts';
import { PROVIDER } from '../common/names.ts';
import { ProviderDriver, type ProviderOptions } from './provider-states.ts';
import { requestFilter } from './request-filter.ts';
import { stateHandlers, unknownStateHandler } from './state-handlers.ts';

/** Options of {@link runVerification}. */
export interface VerifyOptions extends Omit<ProviderOptions, 'redactor'> {
  /** The pact files to verify. */
  pactFiles: string[];
  /** @default a new Redactor */
  redactor?: Redactor;
  /** The Pact core's log level. @default 'error' */
  logLevel?: 'error' | 'warn' | 'info' | 'debug' | 'trace';
}

/** The verdict on one interaction. */
export interface InteractionVerdict {
  description: string;
  type: 'http' | 'message';
  state?: string;
  pending: boolean;
  /** `pending-failed`: failed, but the interaction is pending, so the verification does not fail. */
  result: 'passed' | 'failed' | 'pending-failed' | 'not-run';
  /** Mismatches and setup errors, redacted. */
  problems: string[];
  /** What the verifier could not do as the pact asks (a provider state it does not know), redacted. */
  notes?: string[];
}

/** The outcome of a verification run. */
export interface VerificationReport {
  ok: boolean;
  provider: string;
  baseUrl: string;
  pactFiles: string[];
  interactions: InteractionVerdict[];
  /** Errors not tied to one interaction (the verifier could not run, ...), redacted. */
  errors: string[];
}

interface CoreResults {
  errors?: {
    interaction?: string;
    mismatch?: { type?: string; message?: string; mismatches?: { mismatch?: string; path?: string; key?: string }[] };
  }[];
  interactionResults?: { description: string; result: string }[];
}

const messageOf = (e: unknown) => (isToolkitError(e) ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e));

/** The verifier's mismatches by interaction description (its error names an interaction as `<consumer> - <description>`). */
function mismatchesByDescription(results: CoreResults, declared: readonly { description: string }[]): Map<string, string[]> {
  const byDescription = new Map<string, string[]>();
  for (const err of results.errors ?? []) {
    const d = declared.find((x) => err.interaction?.endsWith(` - ${x.description}`))?.description ?? err.interaction ?? '?';
    const mm = err.mismatch;
    const lines = mm?.mismatches?.length ? mm.mismatches.map((x) => x.mismatch ?? JSON.stringify(x)) : [mm?.message ?? JSON.stringify(mm)];
    byDescription.set(d, [...(byDescription.get(d) ?? []), ...lines]);
  }
  return byDescription;
}

/** Runs the Verifier in this process (its core prints to stdout: see verifyPacts for the quiet way). */
export async function runVerification(o: VerifyOptions): Promise<VerificationReport> {
  const redactor = o.redactor ?? new Redactor();
  const driver = new ProviderDriver({ ...o, redactor });
  const stateErrors = new Map<string, string[]>();
  const messageErrors = new Map<string, string[]>();
  const errors: string[] = [];
  const note = (map: Map<string, string[]>, key: string, e: unknown) => map.set(key, [...(map.get(key) ?? []), messageOf(e)]);

  // Any consumer's pact (V2, V3, V4): the toolkit's, or an integrator's, whose secrets are learned first.
  const pacts = o.pactFiles.map((f) => readAnyPact(f));
  for (const p of pacts) learnPactSecrets(redactor, p);
  const all = pacts.flatMap((p) => p.interactions);
  const declared = all.map((i) => ({
    description: i.description,
    type: (i.kind === 'http' ? 'http' : 'message') as 'http' | 'message',
    state: i.states[0]?.name,
    pending: i.pending,
  }));
  const handlers = stateHandlers(driver, (state, e) => note(stateErrors, state, e));
  // A state the toolkit does not set up: said, and run with a paired terminal only.
  const unknownStates = new Set(all.flatMap((i) => i.states.map((s) => s.name)).filter((s) => !Object.hasOwn(handlers, s)));
  for (const s of unknownStates) handlers[s] = unknownStateHandler(driver, (state, e) => note(stateErrors, state, e), s);
  const known = webhookMessages();
  const messageProviders: Record<string, () => Promise<unknown>> = {};
  for (const m of known) messageProviders[m.description] = messageProvider(driver, m, (e) => note(messageErrors, m.description, e));
  // An integrator's message is produced by the toolkit's message of the same event.
  const unproducible = new Set<string>();
  for (const i of all.filter((x) => x.kind === 'message' && !Object.hasOwn(messageProviders, x.description))) {
    const event = (i.message?.contents as { event?: unknown } | undefined)?.event;
    const m = known.find((k) => k.event === event);
    if (m) messageProviders[i.description] = messageProvider(driver, m, (e) => note(messageErrors, i.description, e));
    else unproducible.add(i.description);
  }

  let results: CoreResults = {};
  try {
    const verifier = new Verifier({
      provider: PROVIDER,
      providerBaseUrl: o.verifierBaseUrl ?? o.baseUrl,
      pactUrls: o.pactFiles,
      logLevel: o.logLevel ?? 'error',
      timeout: Math.max(30_000, o.deadlineMs * 4),
      stateHandlers: handlers as never,
      messageProviders,
      requestFilter: requestFilter(driver, redactor, (e) => errors.push(messageOf(e))) as never,
    });
    const out = await verifier.verifyProvider();
    results = parseResults(out);
  } catch (e) {
    const parsed = parseResults((e as Error)?.message);
    if (parsed.interactionResults) results = parsed;
    else errors.push(`the verifier did not run: ${messageOf(e)}`);
  } finally {
    await driver.close();
  }

  const byDescription = mismatchesByDescription(results, declared);
  const interactions: InteractionVerdict[] = declared.map((d) => {
    const ran = results.interactionResults?.find((r) => r.description === d.description);
    const failed = ran ? ran.result !== 'OK' : false;
    const problems = [
      ...new Set([
        ...(byDescription.get(d.description) ?? []),
        ...(failed && d.state ? (stateErrors.get(d.state) ?? []).map((m) => `provider state "${d.state}": ${m}`) : []),
        ...(failed ? (messageErrors.get(d.description) ?? []).map((m) => `message provider: ${m}`) : []),
      ]),
    ].map((s) => redactor.redactText(s));
    const result = !ran ? 'not-run' : !failed ? 'passed' : d.pending ? 'pending-failed' : 'failed';
    const notes = [
      ...(d.state && unknownStates.has(d.state)
        ? [
            `provider state "${d.state}" is not one the toolkit sets up: run with a paired terminal only (known states: ${Object.keys(
              handlers,
            )
              .filter((x) => !unknownStates.has(x))
              .map((x) => `"${x}"`)
              .join(', ')})`,
          ]
        : []),
      ...(unproducible.has(d.description)
        ? ['no webhook event of the contract to produce this message from (its contents name no known event)']
        : []),
    ].map((s) => redactor.redactText(s));
    return { ...d, result, problems, ...(notes.length ? { notes } : {}) };
  });
  const ok = errors.length === 0 && interactions.every((i) => i.result === 'passed' || i.result === 'pending-failed');
  return {
    ok,
    provider: PROVIDER,
    baseUrl: o.baseUrl,
    pactFiles: o.pactFiles,
    interactions,
    errors: errors.map((s) => redactor.redactText(s)),
  };
}

function parseResults(text: unknown): CoreResults {
  if (typeof text !== 'string') return {};
  try {
    return JSON.parse(text) as CoreResults;
  } catch {
    return {};
  }
}

/** The report as lines for a terminal: one per interaction, problems indented, then the verdict. */
export function formatVerification(r: VerificationReport): string {
  const mark = { passed: '✓', failed: '✗', 'pending-failed': '~', 'not-run': '-' } as const;
  const lines = [`verifying ${r.pactFiles.length} pact file(s) against ${r.baseUrl}`, ''];
  for (const i of r.interactions) {
    const given = i.state ? ` (given ${i.state})` : '';
    lines.push(
      `  ${mark[i.result]} ${i.type === 'message' ? '[message] ' : ''}${i.description}${given}${i.result === 'pending-failed' ? ' [pending]' : ''}`,
    );
    for (const n of i.notes ?? []) lines.push(`      note: ${n}`);
    for (const p of i.problems) lines.push(`      ${p.replace(/\n/g, '\n      ')}`);
  }
  for (const e of r.errors) lines.push(`ERROR ${e}`);
  const failed = r.interactions.filter((i) => i.result === 'failed' || i.result === 'not-run');
  lines.push(
    '',
    r.ok
      ? `PASS: ${r.interactions.length} interactions verified${r.interactions.some((i) => i.result === 'pending-failed') ? ' (pending ones may fail)' : ''}`
      : `FAIL: ${failed.length} of ${r.interactions.length} interactions failed: ${failed.map((i) => i.description).join('; ')}`,
  );
  return `${lines.join('\n')}\n`;
}
