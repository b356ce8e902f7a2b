/**
 * The rules of certify-client: one check per rule of good client behaviour, each judging the whole
 * recording of one client. Each rule's id, severity source, clause, title and fix are registered once
 * in the rule registry (checks/client-rules.ts; the webhook endpoint's rules are checks/receiver-rules.ts,
 * the same rules check-receiver judges, so one behaviour has one id and one severity in both commands);
 * this file is their logic. Severity comes from the rule's source (spec fails; profile and sandbox
 * warn, fail under --strict), as for every check of the toolkit.
 */
import { type CheckOutcome, type FindingDraft, defineCheck, fail, pass, skip } from '../checks/check.ts';
import {
  busyRetryRule,
  generateResendRule,
  integratorHeaderRule,
  pollRateRule,
  requestContractRule,
  slipAfterFinalRule,
  tokenReuseRule,
} from '../checks/client-rules.ts';
import { validAccepted, wrongSignatureRefused } from '../checks/receiver-rules.ts';
import { documentedErrors, enums, schemaSources, validators } from '../generated/contract.ts';
import type { RecordedDelivery, RecordedRequest } from '../simulator/index.ts';
import { type ClientRun, operationOf, ref, resourceId } from './client-run.ts';

const PENDING = new Set(['INITIATED', 'IN_PROGRESS']);
const FINAL_TXN = new Set<string>(enums.TransactionStatus.filter((s) => !PENDING.has(s)));
const INTEGRATOR_HEADER = 'x-pay-connect-integrator-id';
/** Operations that start a transaction: re-sending one may charge twice. */
const STARTS_TRANSACTION = new Set(['generateTransaction', 'startPreauth', 'independentRefund', 'linkedRefund']);
const POLLS = new Set(['getTransactionStatus', 'getOperation']);

/** At most this many examples are named in one finding's message. */
const EXAMPLES = 3;

const examples = (items: readonly RecordedRequest[]) =>
  `${items.slice(0, EXAMPLES).map(ref).join('; ')}${items.length > EXAMPLES ? `; and ${items.length - EXAMPLES} more` : ''}`;

const opId = (r: RecordedRequest) => operationOf(r)?.operationId;
const is2xx = (n: number | null) => n !== null && n >= 200 && n < 300;

/** The client's webhook_url from its pairing requests (null when it gave none). */
export function webhookUrlsOf(run: ClientRun): string[] {
  const urls = run.requests
    .filter((r) => opId(r) === 'pair' && r.status === 200)
    .map((r) => (r.body as { webhook_url?: unknown } | undefined)?.webhook_url)
    .filter((u): u is string => typeof u === 'string' && u !== '');
  return [...new Set(urls)];
}

/** Whether the client saw transaction `id` with a status (a poll answered 200, or a delivery it accepted) in (from, to). */
function statusSeen(run: ClientRun, id: string, from: number, to: number, final = false): boolean {
  const ok = (s: unknown) => typeof s === 'string' && (!final || FINAL_TXN.has(s));
  const polled = run.requests.some(
    (r) =>
      r.t >= from &&
      r.t < to &&
      opId(r) === 'getTransactionStatus' &&
      r.status === 200 &&
      resourceId(r) === id &&
      ok((r.response as { status?: unknown } | undefined)?.status),
  );
  return (
    polled ||
    run.deliveries.some(
      (d) =>
        !d.forged &&
        d.t >= from &&
        d.t < to &&
        is2xx(d.answer) &&
        d.transactionId === id &&
        ok(d.status) &&
        (d.event.startsWith('transaction.') || !final),
    )
  );
}

/** Whether the client polled transaction `id` (any status) in (from, to). */
function polled(run: ClientRun, id: string, from: number, to: number): boolean {
  return run.requests.some((r) => r.t > from && r.t < to && opId(r) === 'getTransactionStatus' && r.status === 200 && resourceId(r) === id);
}

/** Whether the client learnt that some transaction ended (a final status polled, or a final-status webhook accepted) in (from, to). */
function anyFinalSeen(run: ClientRun, from: number, to: number): boolean {
  const final = (s: unknown) => typeof s === 'string' && FINAL_TXN.has(s);
  return (
    run.requests.some(
      (r) =>
        r.t > from &&
        r.t < to &&
        POLLS.has(opId(r) ?? '') &&
        r.status === 200 &&
        final((r.response as { status?: unknown } | undefined)?.status),
    ) ||
    run.deliveries.some(
      (d) => !d.forged && d.t > from && d.t < to && is2xx(d.answer) && d.event.startsWith('transaction.') && final(d.status),
    )
  );
}

/** The end of a request, ms on the recording's clock. */
const endOf = (r: RecordedRequest) => r.t + r.durationMs;

export const integratorHeader = defineCheck<ClientRun, 'client.integrator-header'>({
  ...integratorHeaderRule,
  run(run) {
    const needing = run.requests.filter((r) => operationOf(r)?.integratorHeader ?? (r.path ?? '').startsWith('/v1/pay-connect/'));
    if (needing.length === 0) return skip('the client made no call that needs the integrator header');
    const missing = needing.filter((r) => (r.headers[INTEGRATOR_HEADER] ?? '').trim() === '');
    const other =
      run.integratorId === undefined
        ? []
        : needing.filter((r) => {
            const v = (r.headers[INTEGRATOR_HEADER] ?? '').trim();
            return v !== '' && v !== run.integratorId;
          });
    const out: FindingDraft[] = [];
    if (missing.length > 0) {
      out.push({
        message: `${missing.length} of ${needing.length} calls carry no X-Pay-Connect-Integrator-Id header: ${examples(missing)}`,
        evidence: { requests: missing.map((r) => r.seq) },
      });
    }
    if (other.length > 0) {
      out.push({
        message: `${other.length} calls carry another integrator id than the one given (${run.integratorId}): ${examples(other)}`,
        evidence: { requests: other.map((r) => r.seq) },
      });
    }
    return fail(...out);
  },
});

export const tokenReuse = defineCheck<ClientRun, 'client.token-reuse'>({
  ...tokenReuseRule,
  run(run): CheckOutcome {
    const tokenReqs = run.requests.filter((r) => opId(r) === 'getToken');
    if (tokenReqs.length === 0) return skip('the client requested no token');
    const issued = tokenReqs.filter((r) => r.status === 200);
    const needless: RecordedRequest[] = [];
    for (let i = 1; i < tokenReqs.length; i++) {
      const r = tokenReqs[i]!;
      const prev = [...issued].reverse().find((p) => p.t < r.t);
      if (!prev) continue; // no token yet: retrying a failed token request is fine
      const clientId = (x: RecordedRequest) => (x.body as { client_id?: unknown } | undefined)?.client_id;
      if (clientId(prev) !== clientId(r)) continue; // another pairing's credentials
      if (run.requests.some((p) => opId(p) === 'pair' && p.status === 200 && p.t > prev.t && p.t < r.t)) continue;
      const res = prev.response as { access_token?: unknown; expires_in?: unknown } | undefined;
      const alias = typeof res?.access_token === 'string' ? res.access_token.replace(/^\[|\]$/g, '') : undefined;
      const lifetimeMs = Number(res?.expires_in) * 1000;
      const renewFrom = Number.isFinite(lifetimeMs)
        ? endOf(prev) + lifetimeMs - Math.min(run.settings.renewMarginMs, lifetimeMs / 10)
        : -Infinity;
      if (r.t >= renewFrom) continue; // expired, or about to
      const rejected = run.requests.some((p) => p.t > prev.t && p.t < r.t && p.status === 401 && p.token === alias);
      if (rejected) continue;
      needless.push(r);
    }
    const out: FindingDraft[] = [];
    if (needless.length > 0) {
      out.push({
        message:
          `${needless.length} of ${tokenReqs.length} token requests came while the previous token was still valid and no call had been answered 401 ` +
          `(a token per call): ${examples(needless)}. Keep the token until it expires (expires_in) or a call is answered 401`,
        evidence: { requests: needless.map((r) => r.seq) },
      });
    }
    // Renewed on 401: a token that was answered 401 is not used again.
    const after401: RecordedRequest[] = [];
    for (const r of run.requests) {
      if (r.status !== 401 || r.token === undefined || r.token === 'unknown') continue;
      const again = run.requests.find((p) => p.t > endOf(r) && p.token === r.token);
      if (again && !after401.includes(again)) after401.push(again);
    }
    if (after401.length > 0) {
      out.push({
        message: `a token answered 401 was used again instead of getting a new one: ${examples(after401)}`,
        evidence: { requests: after401.map((r) => r.seq) },
      });
    }
    return fail(...out);
  },
});

export const generateResend = defineCheck<ClientRun, 'client.generate-resend'>({
  ...generateResendRule,
  run(run) {
    const starts = run.requests.filter((r) => STARTS_TRANSACTION.has(opId(r) ?? ''));
    if (starts.length === 0) return skip('the client started no transaction');
    const resent: { r: RecordedRequest; earlier: RecordedRequest; id: string }[] = [];
    for (let i = 1; i < starts.length; i++) {
      const r = starts[i]!;
      for (const earlier of starts.slice(0, i)) {
        const id = (earlier.response as { transaction_id?: unknown } | undefined)?.transaction_id;
        if (earlier.status !== 200 || typeof id !== 'string') continue;
        if (!polled(run, id, earlier.t, r.t) && !statusSeen(run, id, earlier.t, r.t, true)) {
          resent.push({ r, earlier, id });
          break;
        }
      }
    }
    return fail(
      ...resent.slice(0, EXAMPLES).map(({ r, earlier, id }) => ({
        message:
          `${ref(r)} started a transaction again without reading the status of transaction ${id} that ${ref(earlier)} had started ` +
          '(neither polled nor a webhook about it accepted): if the first answer was lost, the customer may be charged twice. ' +
          "Read the earlier transaction's status before starting another",
        evidence: { request: r.seq, earlier: earlier.seq, transaction_id: id },
      })),
    );
  },
});

export const pollRate = defineCheck<ClientRun, 'client.poll-rate'>({
  ...pollRateRule,
  run(run) {
    const s = run.settings;
    const byPath = new Map<string, RecordedRequest[]>();
    for (const r of run.requests) {
      if (!POLLS.has(opId(r) ?? '') || r.path === null) continue;
      byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
    }
    if (byPath.size === 0) return skip('the client polled no status (it relies on webhooks)');
    const tight: RecordedRequest[] = [];
    const steady: string[] = [];
    for (const [path, polls] of byPath) {
      const gaps = polls.slice(1).map((r, i) => ({ r, gap: r.t - polls[i]!.t }));
      for (const g of gaps) if (g.gap < s.minPollIntervalMs) tight.push(g.r);
      if (polls.length >= s.backoffAfterPolls && gaps.length > 0) {
        const first = gaps[0]!.gap;
        const last = gaps.at(-1)!.gap;
        if (last < s.backoffCapMs && last < first * s.backoffFactor)
          steady.push(`${path}: ${polls.length} polls, intervals ${gaps.map((g) => g.gap).join(', ')} ms`);
      }
    }
    const out: FindingDraft[] = [];
    if (tight.length > 0) {
      out.push({
        message: `${tight.length} polls came less than ${s.minPollIntervalMs} ms after the previous poll of the same resource: ${examples(tight)}`,
        evidence: { requests: tight.map((r) => r.seq) },
      });
    }
    if (steady.length > 0) {
      out.push({
        message:
          `no back-off: the interval between polls did not grow by ${s.backoffFactor}x (nor reach ${s.backoffCapMs} ` +
          `ms) over ${s.backoffAfterPolls} or more polls: ${steady.slice(0, EXAMPLES).join('; ')}`,
      });
    }
    return fail(...out);
  },
});

export const busyRetry = defineCheck<ClientRun, 'client.busy-retry'>({
  ...busyRetryRule,
  run(run) {
    const busy = run.requests.filter((r) => r.status === 409);
    if (busy.length === 0) return skip('the client was never answered 409 (terminal busy)');
    const tight: RecordedRequest[] = [];
    for (const r of busy) {
      const next = run.requests.find((p) => p.t > r.t && p.seq !== r.seq && opId(p) === opId(r) && p.path === r.path);
      if (!next) continue;
      const readStatus = anyFinalSeen(run, r.t, next.t);
      if (!readStatus && next.t - endOf(r) < run.settings.busyRetryMinMs) tight.push(next);
    }
    return fail(
      ...(tight.length > 0
        ? [
            {
              message:
                `${tight.length} requests were retried less than ${run.settings.busyRetryMinMs} ms after a ` +
                `409 (terminal busy), without seeing a transaction end meanwhile: ${examples(tight)}. ` +
                'Wait for the running transaction to finish (poll it with back-off, or wait for its final webhook) before starting another',
              evidence: { requests: tight.map((r) => r.seq) },
            },
          ]
        : []),
    );
  },
});

export const slipAfterFinal = defineCheck<ClientRun, 'client.slip-after-final'>({
  ...slipAfterFinalRule,
  run(run) {
    const slips = run.requests.filter((r) => opId(r) === 'getPrintSlip');
    if (slips.length === 0) return skip('the client fetched no print slip');
    const early = slips.filter((r) => {
      const id = resourceId(r);
      return id === undefined || !statusSeen(run, id, -Infinity, r.t, true);
    });
    return fail(
      ...(early.length > 0
        ? [
            {
              message:
                `${early.length} print slips were fetched before the client had seen the transaction in a final ` +
                `status (by polling or an accepted webhook): ${examples(early)}. ` +
                'A print slip is for a completed transaction: wait for the final status first',
              evidence: { requests: early.map((r) => r.seq) },
            },
          ]
        : []),
    );
  },
});

export const requestContract = defineCheck<ClientRun, 'client.request-contract'>({
  ...requestContractRule,
  run(run) {
    if (run.requests.length === 0)
      return fail({
        message: 'the client made no request to the simulator: there is nothing to certify (did it use PAYCONNECT_BASE_URL?)',
      });
    const out: FindingDraft[] = [];
    const unknown = run.requests.filter((r) => !operationOf(r));
    if (unknown.length > 0)
      out.push({
        message: `${unknown.length} requests are not an operation of the contract (method and path; every path ends with a slash): ${examples(unknown)}`,
        evidence: { requests: unknown.map((r) => r.seq) },
      });
    const noBearer = run.requests.filter((r) => operationOf(r)?.bearer && !/^Bearer /i.test(r.headers.authorization ?? ''));
    if (noBearer.length > 0)
      out.push({
        message: `${noBearer.length} calls carry no Authorization: Bearer token: ${examples(noBearer)}`,
        evidence: { requests: noBearer.map((r) => r.seq) },
      });
    const bySchema = new Map<string, { r: RecordedRequest; why: string }[]>();
    for (const r of run.requests) {
      const op = operationOf(r);
      if (!op?.requestSchema) continue;
      let why: string | undefined;
      if (r.body === undefined) why = r.bodyText === undefined ? 'no body' : 'a body that is not JSON';
      else if (!/^application\/json\b/i.test(r.headers['content-type'] ?? ''))
        why = `content-type ${JSON.stringify(r.headers['content-type'] ?? '(none)')}, not application/json`;
      else {
        const validate = validators[op.requestSchema]!;
        // A constraint of the contract's own (x-ours: a webhook_url's pattern, say) is no document's: never held against a client.
        const errors = validate(r.body) ? [] : documentedErrors(op.requestSchema, validate.errors);
        if (errors.length > 0)
          why = errors
            .slice(0, 3)
            .map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`.trim())
            .join(', ');
      }
      if (why !== undefined) bySchema.set(op.requestSchema, [...(bySchema.get(op.requestSchema) ?? []), { r, why }]);
    }
    for (const [schema, bad] of bySchema) {
      out.push({
        message: `${bad.length} request bodies do not match ${schema}: ${bad
          .slice(0, EXAMPLES)
          .map((b) => `${ref(b.r)}: ${b.why}`)
          .join('; ')}`,
        source: schemaSources[schema] ?? 'spec',
        evidence: { requests: bad.map((b) => b.r.seq) },
      });
    }
    return fail(...out);
  },
});

/**
 * Deliveries the client's endpoint could judge. Not those attempted after the client stopped, nor
 * those left unanswered once the client was done: after its last request a program closes its
 * receiver and exits, and an attempt still open then meets a reset or a refused connection that says
 * nothing about how the endpoint answers while it runs.
 */
function judgedDeliveries(run: ClientRun): RecordedDelivery[] {
  const lastRequest = run.requests.at(-1)?.t ?? -Infinity;
  return run.deliveries.filter(
    (d) => (run.endedAt === undefined || d.t < run.endedAt) && !(d.answer === null && d.t + d.durationMs > lastRequest),
  );
}

export const webhookAccepted = defineCheck<ClientRun, 'receiver.valid-accepted'>({
  ...validAccepted,
  run(run) {
    if (webhookUrlsOf(run).length === 0)
      return skip('the client gave no webhook_url at pairing (it has no webhook endpoint; it confirms by polling)');
    const genuine = judgedDeliveries(run).filter((d) => !d.forged);
    if (genuine.length === 0) return skip('no webhook delivery was sent to the client while it ran');
    const refused = genuine.filter((d) => !is2xx(d.answer));
    // One rule with check-receiver (receiver.valid-accepted, spec#events): the spec gives
    // webhook_secret_key to verify deliveries, so an endpoint must take every genuine one; refusing
    // it, whatever the status, is a failure in both commands. Refused as wrongly signed (401, 403) is
    // told apart, as it names the usual cause (the key decoded as hex, the body re-serialised).
    const badSignature = refused.filter((d) => d.answer === 401 || d.answer === 403);
    const other = refused.filter((d) => !badSignature.includes(d));
    const line = (ds: typeof refused) =>
      ds
        .slice(0, EXAMPLES)
        .map((d) => `${d.event} (attempt ${d.attempt + 1}) → ${d.answer ?? d.error ?? 'no answer'}`)
        .join('; ');
    return fail(
      ...(badSignature.length > 0
        ? [
            {
              message:
                `${badSignature.length} of ${genuine.length} correctly signed deliveries were refused as wrongly signed: ${line(badSignature)}. ` +
                'Verify the HMAC-SHA256 over the raw body bytes, keyed with webhook_secret_key as UTF-8 text, and answer 200',
              evidence: { deliveries: badSignature.map((d) => d.seq) },
            },
          ]
        : []),
      ...(other.length > 0
        ? [
            {
              message:
                `${other.length} of ${genuine.length} correctly signed deliveries were not answered 2xx: ${line(other)}. ` +
                'Answer 200 to every delivery whose signature verifies (a 5xx is retried, but each retry delays the news)',
              evidence: { deliveries: other.map((d) => d.seq) },
            },
          ]
        : []),
    );
  },
});

export const webhookForgedRejected = defineCheck<ClientRun, 'receiver.wrong-signature-refused'>({
  ...wrongSignatureRefused,
  run(run) {
    if (webhookUrlsOf(run).length === 0) return skip('the client gave no webhook_url at pairing (it has no webhook endpoint)');
    const forged = run.deliveries.filter((d) => d.forged);
    if (forged.length === 0) return skip("no forged delivery was sent: the client's endpoint never accepted a genuine delivery first");
    const accepted = forged.filter((d) => is2xx(d.answer));
    if (accepted.length > 0) {
      return fail({
        message:
          `the webhook endpoint accepted a delivery signed with a wrong key (${accepted.map((d) => `${d.event} → ${d.answer}`).join('; ')}): ` +
          ('anyone who can reach it can fake a payment. Compare the Signature header with the HMAC-SHA256 ' +
            'of the raw body (webhook_secret_key), in constant time, and answer 403 on a mismatch'),
        evidence: { deliveries: accepted.map((d) => d.seq) },
      });
    }
    if (forged.every((d) => d.answer === null && d.error === 'ECONNREFUSED'))
      return skip('the forged delivery found the endpoint closed (ECONNREFUSED): the client had stopped listening');
    return pass();
  },
});

/** Every rule of certify-client, in report order (the registry's `rulesOf('certify-client')`; a test proves it). */
export const CLIENT_RULES = [
  integratorHeader,
  tokenReuse,
  generateResend,
  pollRate,
  busyRetry,
  slipAfterFinal,
  requestContract,
  webhookAccepted,
  webhookForgedRejected,
] as const;

const ids = CLIENT_RULES.map((r) => r.id);
if (new Set(ids).size !== ids.length) throw new Error('a certify-client rule id is registered twice');

/** The id of a rule of certify-client. */
export type ClientRuleId = (typeof CLIENT_RULES)[number]['id'];
