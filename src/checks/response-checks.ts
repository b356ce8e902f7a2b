/** Checks run automatically on every exchange: the response against the contract. */
import type { Exchange } from '../core/index.ts';
import { type Check, defineCheck, fail, pass, skip } from './check.ts';
import { keptAskingToWait } from './guards.ts';
import { type SchemaErrorClass, describeErrors, schemaVerdict } from './schema-errors.ts';

function schemaClassCheck<const Id extends string>(cls: SchemaErrorClass, id: Id, title: string): Check<Exchange, Id> {
  return defineCheck<Exchange, Id>({
    id,
    clause: 'spec#resources-and-their-fields',
    source: 'spec',
    title,
    auto: true,
    run(ex, ctx) {
      const v = schemaVerdict(ex, ctx.operation);
      if (typeof v === 'string') return skip(v);
      const errors = v.errors[cls];
      if (errors.length === 0) return pass();
      return fail({
        source: v.source,
        clause: v.clause,
        message: `${ctx.operation!.operationId} ${ex.response!.status}: body does not match ${v.schema}: ${describeErrors(errors)}`,
        evidence: { errors: errors.map((e) => ({ path: e.instancePath, keyword: e.keyword, message: e.message, params: e.params })) },
      });
    },
  });
}

/** Required fields, types, nullability and bounds of the body. */
export const responseSchema = schemaClassCheck('schema', 'response.schema', 'Response body matches the contract');
/** Enum membership (status, payment_method, tags, token_type, scope, ...). */
export const responseEnum = schemaClassCheck('enum', 'response.enum', 'Enumerated fields hold a value of their enum');
/** `date-time` and `uri` formats. */
export const responseFormat = schemaClassCheck('format', 'response.format', 'date-time and uri fields are well formed');

/** The status code is one the contract documents for the operation. */
export const statusDocumented = defineCheck<Exchange, 'response.status-documented'>({
  id: 'response.status-documented',
  clause: 'spec#errors',
  source: 'sandbox',
  title: 'The status code is documented for the operation',
  auto: true,
  run(ex, ctx) {
    if (!ex.response) return skip('no response');
    const op = ctx.operation;
    if (!op) return skip('the path is not an operation of the contract');
    const status = String(ex.response.status);
    if (op.responses[status]) return pass();
    // Where the spec itself lists an operation's statuses (print slip), another one breaks the spec;
    // elsewhere the spec shows only 200 and the other codes come from the profiles.
    const specListed = Object.entries(op.responses).some(([s, r]) => s !== '200' && r.source === 'spec');
    return fail({
      source: specListed ? 'spec' : 'sandbox',
      message: `${op.operationId} answered ${status}; documented: ${Object.keys(op.responses).join(', ')}${keptAskingToWait(ex)}`,
      evidence: { status: ex.response.status, documented: Object.keys(op.responses) },
    });
  },
});

/** Bodies are JSON (`application/json`), the spec's first line. */
export const contentTypeJson = defineCheck<Exchange, 'response.content-type'>({
  id: 'response.content-type',
  clause: 'spec#terminal-payment-integration-service-specification',
  source: 'spec',
  title: 'Bodies are served as application/json',
  auto: true,
  run(ex, ctx) {
    if (!ex.response) return skip('no response');
    const raw = ex.response.rawBody ?? '';
    if (raw.length === 0) return skip('no body');
    const ct = ex.response.headers['content-type'] ?? '';
    if (/^application\/(?:[\w.+-]+\+)?json\s*(;|$)/i.test(ct)) return pass();
    return fail({
      message: `${ctx.operation?.operationId ?? ex.request.path} ${ex.response.status}: content-type is ${ct ? `"${ct}"` : 'missing'}, not application/json`,
      evidence: { contentType: ct, bodyStart: raw.slice(0, 80) },
    });
  },
});

/**
 * Opt-in (`--max-response-time`): no document sets a time limit on an answer, so this judges only
 * the limit the user gives, one finding per answer slower than it. Off (skipped) without the flag:
 * a slow but legal service is given the time it needs (budgets and property runs follow its pace).
 */
export const timeWithinLimit = defineCheck<Exchange, 'response.time-within-limit'>({
  id: 'response.time-within-limit',
  clause: 'contract#max-response-time',
  source: 'profile',
  title: 'Every answer comes within --max-response-time (opt-in: no document sets a limit)',
  auto: true,
  run(ex, ctx) {
    const limit = ctx.maxResponseTimeMs;
    if (limit === undefined) return skip('opt-in: no --max-response-time given (no document sets a time limit)');
    if (!ex.response) return skip('no response');
    if (ex.durationMs <= limit) return pass();
    return fail({
      message:
        `${ctx.operation?.operationId ?? `${ex.request.method} ${ex.request.path}`} answered ${ex.response.status} ` +
        `after ${Math.round(ex.durationMs)} ms; --max-response-time is ${limit} ms`,
      evidence: { durationMs: ex.durationMs, limitMs: limit },
    });
  },
});
