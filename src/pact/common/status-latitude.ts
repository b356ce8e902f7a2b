/**
 * The statuses an interaction accepts against the latitude the documents leave a provider. A pact
 * asserts only what the contract guarantees: where the documents allow several answers to the same
 * request, an interaction accepts every one of them (a V4 status-code matcher); and it accepts no
 * status the contract does not document for the operation.
 *
 * What an interaction accepts: its example status, or what its `statusCode` matchers allow (a list of
 * codes, or a class such as `clientError`). The situations with latitude:
 * - a success (2xx example): every 2xx the contract documents for the operation (unpair: 200 from the
 *   public profile, 204 from the sandbox profile);
 * - a token request with well-formed client credentials that obtain no token (a wrong client_secret):
 *   400 or 401 ({@link TOKEN_REFUSED}).
 * Every other refusal is pinned by the documents (sandbox.md: a missing token 401, a missing integrator
 * header 400, an unknown id 404, ...): any status the contract documents for the operation may be
 * accepted there, the example's at least.
 */
import type { OperationEntry } from '../../core/index.ts';
import { operationFor, operationWithId, validators } from '../../generated/contract.ts';
import type { AnyInteraction, AnyPact, RuleSet } from './any-pact.ts';

/**
 * A token request whose well-formed client credentials obtain no token (a wrong client_secret, or
 * credentials revoked by unpair): refused 400 or 401. The spec gives no status (Errors: "not shown"),
 * the public profile documents 400 for the token endpoint, sandbox.md (Pairing) allows 400 or 401 for
 * credentials that no longer obtain a token, RFC 6749 (5.2) answers 400 invalid_client when the
 * credentials come in the body; the contract documents both for getToken.
 */
export const TOKEN_REFUSED: readonly number[] = Object.freeze([400, 401]);

/** The status classes of Pact's V4 status-code matcher, as ranges of codes. */
export const STATUS_CLASSES: Readonly<Record<string, readonly [number, number]>> = Object.freeze({
  information: [100, 199],
  success: [200, 299],
  redirect: [300, 399],
  clientError: [400, 499],
  serverError: [500, 599],
  nonError: [100, 399],
  error: [400, 599],
});

/** The statuses a response accepts, and how to say them. */
export interface AcceptedStatuses {
  statuses: number[];
  /** `401`, `400 or 401`, `any 4xx (clientError)`. */
  label: string;
  /** A matcher the toolkit cannot read (an unknown class), said as a reason. */
  unreadable?: string;
}

const range = ([from, to]: readonly [number, number]) => Array.from({ length: to - from + 1 }, (_, k) => from + k);
const or = (codes: readonly number[]) => (codes.length <= 1 ? codes.join('') : `${codes.slice(0, -1).join(', ')} or ${codes.at(-1)!}`);

/**
 * The statuses a response with example status `example` accepts under its `status` matching rules
 * (a V3/V4 `status` part: one rule, or rules keyed by `$` or ``). Matchers combine with AND unless the
 * rule says OR; matchers other than `statusCode` do not loosen the status.
 */
export function acceptedStatuses(example: number, statusRules: unknown): AcceptedStatuses {
  const rules = (statusRules ?? {}) as RuleSet | RuleSet[string];
  const sets = ('matchers' in rules ? [rules as RuleSet[string]] : Object.values(rules as RuleSet)).filter((r) => r !== undefined);
  let statuses: number[] | undefined;
  const labels: string[] = [];
  for (const rule of sets) {
    const codes: number[][] = [];
    for (const m of rule.matchers ?? []) {
      if (m.match !== 'statusCode') continue;
      const s = m.status;
      if (Array.isArray(s)) {
        codes.push(s.map(Number));
        labels.push(or(s.map(Number)));
      } else if (typeof s === 'string' && Object.hasOwn(STATUS_CLASSES, s)) {
        codes.push(range(STATUS_CLASSES[s]!));
        labels.push(
          `any ${s === 'nonError' ? '1xx to 3xx' : s === 'error' ? '4xx or 5xx' : `${String(STATUS_CLASSES[s]![0])[0]}xx`} (${s})`,
        );
      } else {
        return {
          statuses: [example],
          label: String(example),
          unreadable: `the status matcher ${JSON.stringify(s)} is no status list or class of Pact V4`,
        };
      }
    }
    if (codes.length === 0) continue;
    const joined = rule.combine === 'OR' ? [...new Set(codes.flat())] : codes.reduce((a, b) => a.filter((x) => b.includes(x)));
    statuses = statuses ? statuses.filter((x) => joined.includes(x)) : joined;
  }
  if (!statuses) return { statuses: [example], label: String(example) };
  return { statuses: [...new Set(statuses)].sort((a, b) => a - b), label: labels.join(' and ') };
}

/** A situation whose answer the documents leave open between several statuses. */
export interface StatusSituation {
  /** What the interaction is about, as a reason says it. */
  label: string;
  /** Every status the documents allow there. */
  statuses: readonly number[];
  /** Where the documents say so. */
  documents: string;
}

const is2xx = (s: number) => s >= 200 && s < 300;
const is4xx = (s: number) => s >= 400 && s < 500;

/** The situation of an interaction of `op` whose example status is `example`, when the documents leave it latitude. */
export function situationOf(op: OperationEntry, i: AnyInteraction, example: number): StatusSituation | undefined {
  if (is2xx(example)) {
    const documented = Object.entries(op.responses).filter(([s]) => is2xx(Number(s)));
    return {
      label: `an accepted ${op.operationId}`,
      statuses: documented.map(([s]) => Number(s)),
      documents: `the contract documents ${documented.map(([s, r]) => `${s} (${r.source})`).join(', ')}`,
    };
  }
  const body = i.request?.body;
  if (op.operationId === 'getToken' && is4xx(example) && op.requestSchema && validators[op.requestSchema]!(body)) {
    return {
      label: 'well-formed client credentials that obtain no token',
      statuses: TOKEN_REFUSED,
      documents: 'the spec gives no status, the profile documents 400, sandbox.md 400 or 401, RFC 6749 5.2 400 invalid_client',
    };
  }
  return undefined;
}

/** The verdict on the statuses of one HTTP interaction. */
export interface StatusVerdict {
  description: string;
  states: string[];
  operation?: string;
  /** What it accepts, said as {@link AcceptedStatuses.label}. */
  accepts: string;
  /** The situation, when the documents leave it latitude. */
  situation?: StatusSituation;
  ok: boolean;
  reasons: string[];
}

/** Status codes as a reason says them: all of a few, the first five of many. */
export const statusList = (codes: readonly number[]): string =>
  codes.length > 6 ? `${codes.slice(0, 5).join(', ')}, … (${codes.length} in all)` : codes.join(', ');

function verdict(i: AnyInteraction, op: OperationEntry | undefined): StatusVerdict {
  const res = i.response!;
  const accepted = acceptedStatuses(res.status, res.rules.status);
  const base = { description: i.description, states: i.states.map((s) => s.name), accepts: accepted.label };
  if (!op) return { ...base, ok: false, reasons: [`${i.request!.method} ${i.request!.path}: no operation of the contract`] };
  const reasons: string[] = accepted.unreadable ? [accepted.unreadable] : [];
  const documented = Object.keys(op.responses).map(Number);
  const undocumented = accepted.statuses.filter((s) => !documented.includes(s));
  if (undocumented.length)
    reasons.push(
      `accepts ${accepted.label}: ${op.operationId} does not document ${statusList(undocumented)} (documents ${documented.join(', ')})`,
    );
  if (!accepted.statuses.includes(res.status))
    reasons.push(`its example status ${res.status} is not one its status matcher accepts (${accepted.label})`);
  const situation = situationOf(op, i, res.status);
  if (situation) {
    const beyond = accepted.statuses.filter((s) => documented.includes(s) && !situation.statuses.includes(s));
    if (beyond.length)
      reasons.push(
        `accepts ${statusList(beyond)}, which the documents do not allow for ${situation.label} (they allow ${or(situation.statuses)}: ${situation.documents})`,
      );
    const left = situation.statuses.filter((s) => !accepted.statuses.includes(s));
    if (left.length)
      reasons.push(
        `pins ${accepted.label} where the documents allow ${or(situation.statuses)} for ${situation.label} ` +
          `(${situation.documents}): a provider answering ${or(left)} follows them and would fail`,
      );
  }
  return { ...base, operation: op.operationId, ...(situation ? { situation } : {}), ok: reasons.length === 0, reasons };
}

/** The verdict on every HTTP interaction of `pact` (messages have no status). */
export function checkStatusLatitude(pact: Pick<AnyPact, 'interactions'>): StatusVerdict[] {
  return pact.interactions.filter((i) => i.kind === 'http').map((i) => verdict(i, operationFor(i.request!.method, i.request!.path)));
}

/** The documented 2xx statuses of an operation: what an interaction of its success accepts. */
export function successStatuses(operationId: string): number[] {
  const op = operationWithId(operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return Object.keys(op.responses).map(Number).filter(is2xx);
}
