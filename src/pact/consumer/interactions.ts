/**
 * The HTTP interactions of the pact: for every operation of the contract, the requests the toolkit's
 * client makes, with the provider state each needs, bodies matched by the contract's schemas, and the
 * way the client makes the request (`drive`). The consumer suite and the pact target declare exactly
 * these, so both write the same pact.
 */
import { MatchersV3, type StatusCodeMatcher, type TemplateHeaders } from '@pact-foundation/pact';
import { type PayConnectClient, TOKEN_PATH, credentialsTokenSource } from '../../client/index.ts';
import { operationWithId, operations } from '../../generated/contract.ts';
import { requestExample, responseExample } from '../common/contract-examples.ts';
import {
  type RawMatcher,
  anythingBut,
  rawMatcher,
  fromState,
  integerMatching,
  notEndingWith,
  notStartingWith,
  statePath,
} from './matchers.ts';
import { EXAMPLE, INVALID_GENERATE_BODIES, PACT_BASE_AMOUNT, PAIRING_PROBES, PROBE } from '../common/names.ts';
import { URI_PATTERN, enumPattern, schemaToMatcher } from './schema-matcher.ts';
import { TOKEN_REFUSED, successStatuses } from '../common/status-latitude.ts';
import { EXAMPLE_IDS, OUTCOMES, STATE, type StateName } from '../common/states.ts';

/** What a drive returns: the answer as the toolkit's client saw it. */
export interface DriveResult {
  status: number;
  body: unknown;
}

/** What a drive gets: a client whose bearer token is the pact's fake example token. */
export interface DriveContext {
  client: PayConnectClient;
}

/** One HTTP interaction of the pact. */
export interface HttpInteraction {
  description: string;
  state: StateName;
  operationId: string;
  method: 'GET' | 'POST';
  path: string | RawMatcher;
  headers: TemplateHeaders;
  /** Matcher tree of the JSON request body, if the client sends one. */
  body?: Record<string, unknown>;
  status: number | StatusCodeMatcher<number>;
  /** Matcher tree of the JSON response body, if one is expected. */
  responseBody?: Record<string, unknown>;
  /** Makes the request the way the toolkit does. */
  drive(ctx: DriveContext): Promise<DriveResult>;
}

/**
 * A valid call's headers: any bearer token but the auth probes' invalid ones (`pcc-invalid-…`), any
 * integrator id but the probes' other one (`…-other`), so that a probe matches only its own interaction.
 */
const AUTH: TemplateHeaders = {
  Authorization: MatchersV3.regex(`^Bearer ${notStartingWith(PROBE.invalidTokenPrefix)}$`, `Bearer ${EXAMPLE.accessToken}`),
};
const INTEGRATOR: TemplateHeaders = {
  'X-Pay-Connect-Integrator-Id': MatchersV3.regex(`^${notEndingWith(PROBE.otherIntegratorSuffix)}$`, EXAMPLE.integratorId),
};
const BOTH: TemplateHeaders = { ...AUTH, ...INTEGRATOR };

function pathOf(operationId: string): string {
  const op = operationWithId(operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return op.path;
}

const txPath = (operationId: string, state: 'transactionId' | 'operationId', example: string) =>
  statePath(pathOf(operationId), { [state === 'transactionId' ? 'transaction_id' : 'operation_id']: { state, example } });

const concrete = (operationId: string, id: string) => pathOf(operationId).replace(/\{\w+\}/, id);

async function send(client: PayConnectClient, method: 'GET' | 'POST', path: string, body?: unknown): Promise<DriveResult> {
  const res = await client.request({ method, path, ...(body === undefined ? {} : { body }) });
  return { status: res.status, body: res.body };
}

const created = (id: string) => schemaToMatcher('TransactionCreated', { transaction_id: id });
const reference = (operationId: string, transactionId: string) =>
  schemaToMatcher('OperationReference', { operation_id: operationId, transaction_id: transactionId });

/** Six digits, but not 000000 (never valid: the pairing suite's refused probe). */
const VALID_OTP = '^(?:[1-9][0-9]{5}|0[1-9][0-9]{4}|00[1-9][0-9]{3}|000[1-9][0-9]{2}|0000[1-9][0-9]|00000[1-9])$';

/** The pairing request: the name, the OTP and webhook URL of the state (the toolkit always gives one). */
function pair(): HttpInteraction {
  const example = { name: EXAMPLE.pairingName, otp: EXAMPLE.otp, webhook_url: EXAMPLE.webhookUrl };
  return {
    description: 'pair with a one-time password and a webhook URL',
    state: STATE.otp,
    operationId: 'pair',
    method: 'POST',
    path: pathOf('pair'),
    headers: INTEGRATOR,
    body: schemaToMatcher('PairRequest', example, {
      mode: 'request',
      inject: {
        otp: fromState('${otp}', EXAMPLE.otp, VALID_OTP),
        webhook_url: fromState('${webhookUrl}', EXAMPLE.webhookUrl, URI_PATTERN),
      },
    }),
    status: 200,
    responseBody: schemaToMatcher('PairingResult', {
      ...responseExample('pair', 200),
      pay_connect_name: EXAMPLE.pairingName,
      client_id: EXAMPLE.clientId,
      client_secret: EXAMPLE.clientSecret,
      webhook_secret_key: EXAMPLE.webhookKey,
    }),
    drive: ({ client }) =>
      client
        .request({ method: 'POST', path: pathOf('pair'), auth: 'none', body: example })
        .then((r) => ({ status: r.status, body: r.body })),
  };
}

/** The token request, as the client's credentials token source makes it (no integrator header). */
function token(): HttpInteraction {
  const example = { grant_type: 'client_credentials', client_id: EXAMPLE.clientId, client_secret: EXAMPLE.clientSecret };
  return {
    description: 'exchange client credentials for a bearer token',
    state: STATE.paired,
    operationId: 'getToken',
    method: 'POST',
    path: TOKEN_PATH,
    headers: {},
    // Any client_secret but the auth suite's wrong one (`…-not-the-secret`), which has its own interaction.
    body: schemaToMatcher('TokenRequest', example, {
      mode: 'request',
      inject: { client_secret: MatchersV3.regex(`^${notEndingWith(PROBE.wrongSecretSuffix)}$`, example.client_secret) },
    }),
    status: 200,
    responseBody: schemaToMatcher('TokenResult', { ...responseExample('getToken', 200), access_token: EXAMPLE.accessToken }),
    async drive({ client }) {
      let answer: DriveResult | undefined;
      const source = credentialsTokenSource(
        async (r) => {
          const res = await client.request(r);
          answer = { status: res.status, body: res.body };
          return res;
        },
        () => ({ client_id: EXAMPLE.clientId, client_secret: EXAMPLE.clientSecret }),
      );
      await source();
      return answer!;
    },
  };
}

function simple(
  description: string,
  state: StateName,
  operationId: string,
  method: 'GET' | 'POST',
  responseBody?: Record<string, unknown>,
  status: HttpInteraction['status'] = 200,
): HttpInteraction {
  const path = pathOf(operationId);
  return {
    description,
    state,
    operationId,
    method,
    path,
    headers: BOTH,
    status,
    ...(responseBody ? { responseBody } : {}),
    drive: ({ client }) => send(client, method, path),
  };
}

function withBody(
  description: string,
  state: StateName,
  operationId: string,
  path: string | RawMatcher,
  concretePath: string,
  schema: string,
  example: Record<string, unknown>,
  responseBody: Record<string, unknown>,
  amountPattern?: string,
): HttpInteraction {
  const inject = amountPattern ? { amount: integerMatching(amountPattern, example.amount as number) } : {};
  return {
    description,
    state,
    operationId,
    method: 'POST',
    path,
    headers: BOTH,
    body: schemaToMatcher(schema, example, { mode: 'request', inject }),
    status: 200,
    responseBody,
    drive: ({ client }) => send(client, 'POST', concretePath, example),
  };
}

/** The status record fields the harness reads besides `status` (the sandbox's record). */
const RECORD_FIELDS = [
  'transaction_id',
  'client_transaction_id',
  'amount',
  'tip_amount',
  'total_amount',
  'currency',
  'payment_method',
  'tags',
];

/**
 * Generate with a payment method: one the configuration lists (its example lists CARD) is accepted,
 * any other is refused with 400 (sandbox.md, Configuration).
 */
function paymentMethods(): HttpInteraction[] {
  const ids = ((responseExample('getConfig', 200).payment_methods ?? []) as { id: string }[]).map((m) => m.id);
  // "Any other method" is a regex without look-ahead, written for the example's single method.
  if (ids.length !== 1) throw new Error(`the configuration example should list one payment method, it lists ${ids.length}`);
  const success = OUTCOMES[0]!;
  const known = { amount: success.amount, payment_method: ids[0]!, client_transaction_id: 'order-card' };
  const unknown = { amount: 1000, payment_method: 'PCC_NO_SUCH_METHOD', client_transaction_id: 'order-unknown-method' };
  const refused = schemaToMatcher('Error', { detail: 'payment_method is not a payment method of the configuration.' });
  return [
    {
      ...withBody(
        'generate a payment with a payment method of the configuration',
        STATE.paired,
        'generateTransaction',
        pathOf('generateTransaction'),
        pathOf('generateTransaction'),
        'GenerateRequest',
        known,
        created(success.exampleId),
        success.amountPattern,
      ),
      body: schemaToMatcher('GenerateRequest', known, {
        mode: 'request',
        inject: {
          amount: integerMatching(success.amountPattern, known.amount),
          payment_method: MatchersV3.regex(enumPattern(ids), known.payment_method),
        },
      }),
    },
    {
      ...withBody(
        'generate with a payment method the configuration does not list is refused',
        STATE.paired,
        'generateTransaction',
        pathOf('generateTransaction'),
        pathOf('generateTransaction'),
        'GenerateRequest',
        unknown,
        refused,
      ),
      body: schemaToMatcher('GenerateRequest', unknown, {
        mode: 'request',
        inject: { payment_method: MatchersV3.regex(anythingBut(ids[0]!), unknown.payment_method) },
      }),
      status: 400,
    },
  ];
}

/** A literal JSON body (no matchers): the exact request a scenario sends with the pact's fixed amounts. */
function literal(
  description: string,
  state: StateName,
  operationId: string,
  body: Record<string, unknown>,
  status: number,
  responseBody: Record<string, unknown>,
): HttpInteraction {
  const path = pathOf(operationId);
  return {
    description,
    state,
    operationId,
    method: 'POST',
    path,
    headers: BOTH,
    body,
    status,
    responseBody,
    drive: ({ client }) => send(client, 'POST', path, body),
  };
}

/**
 * The ids the scenarios make up for a transaction or operation no service has issued: `pcc-unknown-`
 * and a random UUID (payment steps), or a seeded UUID `00000000-0000-4000-8000-…` (pairing steps).
 */
const UNKNOWN_ID = {
  pattern: '(?:pcc-unknown-[0-9a-f-]{36}|00000000-0000-4000-8000-[0-9a-f]{12})',
  example: 'pcc-unknown-00000000-0000-4000-8000-000000000000',
};

/**
 * The scenarios' requests the outcome table above does not cover: generate without a
 * client_transaction_id for each outcome (the print-slip and payment scenarios), with the
 * configuration's payment method CARD or one it does not list (literal bodies: against the pact the
 * scenarios send the fixed base amount 1000, an approval), the payment suite's bodies that break
 * GenerateRequest (each refused 400), and the status and slip of an id no service issued (404).
 */
function scenarioRequests(): HttpInteraction[] {
  const success = OUTCOMES[0]!;
  const refused = schemaToMatcher('Error', { detail: 'payment_method is not a payment method of the configuration.' });
  const unknown = (
    operationId: string,
    what: string,
    method: 'GET' | 'POST' = 'GET',
    body?: { schema: string; example: Record<string, unknown> },
  ): HttpInteraction => {
    const example = pathOf(operationId).replace(/\{\w+\}/, UNKNOWN_ID.example);
    const kind = operationId === 'getOperation' ? 'an operation' : 'a transaction';
    return {
      ...simple(
        `${what} of ${kind} id no service issued`,
        STATE.paired,
        operationId,
        method,
        schemaToMatcher('Error', { detail: 'Not found.' }),
        404,
      ),
      path: rawMatcher(MatchersV3.regex(`^${pathOf(operationId).replace(/\{\w+\}/, UNKNOWN_ID.pattern)}$`, example)),
      ...(body ? { body: schemaToMatcher(body.schema, body.example, { mode: 'request' }) } : {}),
      drive: ({ client }) => send(client, method, example, body?.example),
    };
  };
  // Cancel of a final transaction: refused, and the record stays as it was (the status interactions).
  const cancelFinal = OUTCOMES.filter((o) => o.slug === 'success' || o.slug === 'declined').map((o): HttpInteraction => ({
    ...simple(
      `cancel of ${o.state} is refused`,
      o.state,
      'cancelTransaction',
      'POST',
      schemaToMatcher('Error', { detail: 'Transaction is already final.' }),
      400,
    ),
    path: txPath('cancelTransaction', 'transactionId', o.exampleId),
    drive: ({ client }) => send(client, 'POST', concrete('cancelTransaction', o.exampleId)),
  }));
  return [
    ...OUTCOMES.map((o) =>
      withBody(
        `generate a payment the terminal ends ${o.slug === 'tip' ? 'with a tip' : o.final}, without a client_transaction_id`,
        STATE.paired,
        'generateTransaction',
        pathOf('generateTransaction'),
        pathOf('generateTransaction'),
        'GenerateRequest',
        { amount: o.amount },
        created(o.exampleId),
        o.amountPattern,
      ),
    ),
    literal(
      'generate a payment with the payment method CARD, without a client_transaction_id',
      STATE.paired,
      'generateTransaction',
      { amount: PACT_BASE_AMOUNT, payment_method: 'CARD' },
      200,
      created(success.exampleId),
    ),
    literal(
      'generate with a payment method the configuration does not list, without a client_transaction_id, is refused',
      STATE.paired,
      'generateTransaction',
      { amount: PACT_BASE_AMOUNT, payment_method: 'PCC-NOT-A-METHOD' },
      400,
      refused,
    ),
    // The payment suite's bodies that break GenerateRequest, exactly as it sends them here: each refused.
    ...INVALID_GENERATE_BODIES.map(([what, body]) =>
      literal(
        `generate with ${what} is refused`,
        STATE.paired,
        'generateTransaction',
        body(PACT_BASE_AMOUNT),
        400,
        schemaToMatcher('Error', { detail: 'amount must be a positive whole number of cents.' }),
      ),
    ),
    unknown('getTransactionStatus', 'poll the status'),
    unknown('getPrintSlip', 'fetch the print slip'),
    ...cancelFinal,
    unknown('cancelTransaction', 'cancel', 'POST'),
    ...preauthRefusals(),
    ...refundRequests(),
    unknown('getOperation', 'poll the operation'),
    unknown('linkedRefund', 'refund part', 'POST', { schema: 'LinkedRefundRequest', example: { amount: 100 } }),
    unknown('preauthIncrement', 'increment', 'POST', { schema: 'PreauthOperationRequest', example: { amount: 100 } }),
    unknown('preauthComplete', 'complete', 'POST', { schema: 'PreauthOperationRequest', example: { amount: 100 } }),
    unknown('revertTransaction', 'revert', 'POST'),
  ];
}

/**
 * Increment and complete refused (400) on a transaction that is not an authorized preauthorization: a
 * plain charge (SUCCESS) and a declined preauthorization, whose start, status and slip are here too.
 */
function preauthRefusals(): HttpInteraction[] {
  const refused = schemaToMatcher('Error', { detail: 'Transaction is not an authorized preauthorization.' });
  const declined = OUTCOMES.find((o) => o.slug === 'declined')!;
  const id = EXAMPLE_IDS.preauthDeclined;
  const list: HttpInteraction[] = [];
  const refuse = (state: StateName, txId: string, what: string, op: 'preauthIncrement' | 'preauthComplete', amount: number) =>
    list.push({
      ...withBody(
        `${op === 'preauthIncrement' ? 'increment' : 'complete'} ${what} is refused`,
        state,
        op,
        txPath(op, 'transactionId', txId),
        concrete(op, txId),
        'PreauthOperationRequest',
        { amount },
        refused,
      ),
      status: 400,
    });
  refuse(STATE.success, OUTCOMES[0]!.exampleId, 'a plain charge', 'preauthIncrement', 100);
  refuse(STATE.success, OUTCOMES[0]!.exampleId, 'a plain charge', 'preauthComplete', 1000);
  const success = OUTCOMES[0]!;
  list.push(
    withBody(
      'start a preauthorization the terminal authorizes, without a client_transaction_id',
      STATE.paired,
      'startPreauth',
      pathOf('startPreauth'),
      pathOf('startPreauth'),
      'PreauthRequest',
      { amount: success.amount },
      created(EXAMPLE_IDS.preauth),
      success.amountPattern,
    ),
  );
  list.push(
    withBody(
      'start a preauthorization the terminal declines, without a client_transaction_id',
      STATE.paired,
      'startPreauth',
      pathOf('startPreauth'),
      pathOf('startPreauth'),
      'PreauthRequest',
      { amount: declined.amount },
      created(id),
      declined.amountPattern,
    ),
  );
  const record = {
    ...responseExample('getTransactionStatus', 200),
    transaction_id: id,
    status: 'DECLINED',
    amount: declined.amount,
    tip_amount: 0,
    total_amount: declined.amount,
  };
  list.push({
    ...simple(
      `poll the status of ${STATE.preauthDeclined}`,
      STATE.preauthDeclined,
      'getTransactionStatus',
      'GET',
      schemaToMatcher('TransactionRecord', record, { include: RECORD_FIELDS }),
    ),
    path: txPath('getTransactionStatus', 'transactionId', id),
    drive: ({ client }) => send(client, 'GET', concrete('getTransactionStatus', id)),
  });
  refuse(STATE.preauthDeclined, id, 'a declined preauthorization', 'preauthIncrement', 100);
  refuse(STATE.preauthDeclined, id, 'a declined preauthorization', 'preauthComplete', 100);
  const slip = {
    ...responseExample('getPrintSlip', 200),
    transaction_id: id,
    status: 'DECLINED',
    amount: declined.amount,
    tip_amount: 0,
    total_amount: declined.amount,
  };
  list.push({
    ...simple(
      `fetch the print slip of ${STATE.preauthDeclined}`,
      STATE.preauthDeclined,
      'getPrintSlip',
      'GET',
      schemaToMatcher('PrintSlip', slip),
    ),
    path: txPath('getPrintSlip', 'transactionId', id),
    drive: ({ client }) => send(client, 'GET', concrete('getPrintSlip', id)),
  });
  return list;
}

/**
 * The refund scenarios a stateless mock can answer: the status and slip of a completed independent
 * refund (tagged refund; it echoes `order-refund`, the client_transaction_id the scenario sends against
 * the pact), and a linked refund of a declined transaction, refused.
 */
function refundRequests(): HttpInteraction[] {
  const id = EXAMPLE_IDS.refund;
  const amount = 1000;
  const record = {
    ...responseExample('getTransactionStatus', 200),
    transaction_id: id,
    client_transaction_id: 'order-refund',
    status: 'SUCCESS',
    amount,
    tip_amount: 0,
    total_amount: amount,
    tags: ['refund'],
  };
  const slip = {
    ...responseExample('getPrintSlip', 200),
    transaction_id: id,
    status: 'SUCCESS',
    amount,
    tip_amount: 0,
    total_amount: amount,
    tags: ['refund'],
  };
  const declined = OUTCOMES.find((o) => o.slug === 'declined')!;
  return [
    {
      ...simple(
        `poll the status of ${STATE.refund}`,
        STATE.refund,
        'getTransactionStatus',
        'GET',
        schemaToMatcher('TransactionRecord', record, { include: RECORD_FIELDS }),
      ),
      path: txPath('getTransactionStatus', 'transactionId', id),
      drive: ({ client }) => send(client, 'GET', concrete('getTransactionStatus', id)),
    },
    {
      ...simple(`fetch the print slip of ${STATE.refund}`, STATE.refund, 'getPrintSlip', 'GET', schemaToMatcher('PrintSlip', slip)),
      path: txPath('getPrintSlip', 'transactionId', id),
      drive: ({ client }) => send(client, 'GET', concrete('getPrintSlip', id)),
    },
    {
      ...withBody(
        'refund part of a declined transaction is refused',
        STATE.declined,
        'linkedRefund',
        txPath('linkedRefund', 'transactionId', declined.exampleId),
        concrete('linkedRefund', declined.exampleId),
        'LinkedRefundRequest',
        { amount: 100 },
        schemaToMatcher('Error', { detail: 'Only a SUCCESS transaction can be refunded.' }),
      ),
      status: 400,
    },
  ];
}

/**
 * The auth suite's probes (suites/auth): every operation that takes a bearer token, called without one
 * and with an invalid one (`pcc-invalid-…`), both 401; without the integrator header (400) and with
 * another integrator id (`…-other`, 401); pairing without the integrator header (400); and a token
 * request with a wrong client_secret (`…-not-the-secret`), refused 400 or 401: the spec and the
 * profile give no status for it, the contract documents both for the token endpoint, sandbox.md
 * allows either for credentials that no longer obtain a token, and RFC 6749 (5.2) answers 400
 * invalid_client; the auth suite accepts a refusal too (status-latitude.ts keeps the pact to this).
 * Path ids name nothing (the auth probes use ids no service issued under the pact), bodies are ones
 * a correct service would accept.
 */
function authProbes(): HttpInteraction[] {
  return [...bearerProbes(), pairWithoutIntegrator(), tokenWithWrongSecret()];
}

/** A refusal's body: the contract's Error, with the detail as example. */
function refused(detail: string) {
  return schemaToMatcher('Error', { detail });
}

/** The request bodies of the bearer operations that take one: examples a correct service accepts. */
const PROBE_BODIES: Record<string, { schema: string; example: Record<string, unknown> }> = {
  generateTransaction: { schema: 'GenerateRequest', example: { amount: 1055, client_transaction_id: 'pcc-auth-probe' } },
  startPreauth: { schema: 'PreauthRequest', example: { amount: 1055, client_transaction_id: 'pcc-auth-probe' } },
  independentRefund: { schema: 'IndependentRefundRequest', example: { amount: 1055, client_transaction_id: 'pcc-auth-probe' } },
  linkedRefund: { schema: 'LinkedRefundRequest', example: { amount: 1055 } },
  preauthIncrement: { schema: 'PreauthOperationRequest', example: { amount: 1055 } },
  preauthComplete: { schema: 'PreauthOperationRequest', example: { amount: 1055 } },
};

/** Every bearer operation called without a token, with an invalid one, without the integrator header and as another integrator. */
function bearerProbes(): HttpInteraction[] {
  const invalidToken = `Bearer ${PROBE.invalidTokenPrefix}example`;
  const otherIntegrator = `${EXAMPLE.integratorId}${PROBE.otherIntegratorSuffix}`;
  const kinds = [
    {
      label: 'without a bearer token',
      status: 401,
      detail: 'Authentication credentials were not provided.',
      headers: INTEGRATOR,
      options: { auth: 'none' as const },
    },
    {
      label: 'with an invalid bearer token',
      status: 401,
      detail: 'Invalid token.',
      headers: { ...INTEGRATOR, Authorization: MatchersV3.regex(`^Bearer ${PROBE.invalidTokenPrefix}\\S+$`, invalidToken) },
      options: { auth: { bearer: invalidToken.slice('Bearer '.length) } },
    },
    {
      label: 'without the integrator header',
      status: 400,
      detail: 'The X-Pay-Connect-Integrator-Id header is required.',
      headers: AUTH,
      options: { integrator: 'none' },
    },
    {
      label: 'with another integrator id',
      status: 401,
      detail: 'The pairing belongs to another integrator.',
      headers: { ...AUTH, 'X-Pay-Connect-Integrator-Id': MatchersV3.regex(`^\\S+${PROBE.otherIntegratorSuffix}$`, otherIntegrator) },
      options: { integrator: otherIntegrator },
    },
  ];
  const list: HttpInteraction[] = [];
  for (const op of operations.filter((o) => o.bearer)) {
    const hasId = /\{\w+\}/.test(op.path);
    const example = op.path.replace(/\{\w+\}/, UNKNOWN_ID.example);
    const path = hasId ? rawMatcher(MatchersV3.regex(`^${op.path.replace(/\{\w+\}/, UNKNOWN_ID.pattern)}$`, example)) : op.path;
    const body = PROBE_BODIES[op.operationId];
    for (const k of kinds) {
      if (k.label.includes('integrator') && !op.integratorHeader) continue;
      list.push({
        description: `${op.operationId} ${k.label} is refused`,
        state: STATE.paired,
        operationId: op.operationId,
        method: op.method as 'GET' | 'POST',
        path,
        headers: k.headers,
        ...(body ? { body: schemaToMatcher(body.schema, body.example, { mode: 'request' }) } : {}),
        status: k.status,
        responseBody: refused(k.detail),
        drive: async ({ client }) => {
          const res = await client.request({
            method: op.method as 'GET' | 'POST',
            path: example,
            ...(body ? { body: body.example } : {}),
            ...k.options,
          });
          return { status: res.status, body: res.body };
        },
      });
    }
  }
  return list;
}

/** Pairing without the integrator header, refused 400. */
function pairWithoutIntegrator(): HttpInteraction {
  const pairExample = { name: EXAMPLE.pairingName, otp: EXAMPLE.otp };
  return {
    description: 'pair without the integrator header is refused',
    // No OTP is spent: a correct service refuses the request before it looks at the OTP.
    state: STATE.paired,
    operationId: 'pair',
    method: 'POST',
    path: pathOf('pair'),
    headers: {},
    body: schemaToMatcher('PairRequest', pairExample, { mode: 'request', inject: { otp: MatchersV3.regex(VALID_OTP, EXAMPLE.otp) } }),
    status: 400,
    responseBody: refused('The X-Pay-Connect-Integrator-Id header is required.'),
    drive: ({ client }) =>
      client
        .request({ method: 'POST', path: pathOf('pair'), auth: 'none', integrator: 'none', body: pairExample })
        .then((r) => ({ status: r.status, body: r.body })),
  };
}

/** A token request with a wrong client_secret, refused 400 or 401. */
function tokenWithWrongSecret(): HttpInteraction {
  const wrong = {
    grant_type: 'client_credentials',
    client_id: EXAMPLE.clientId,
    client_secret: `${EXAMPLE.clientSecret}${PROBE.wrongSecretSuffix}`,
  };
  return {
    description: 'exchange client credentials with a wrong client_secret is refused',
    state: STATE.paired,
    operationId: 'getToken',
    method: 'POST',
    path: TOKEN_PATH,
    headers: {},
    body: schemaToMatcher('TokenRequest', wrong, {
      mode: 'request',
      inject: { client_secret: MatchersV3.regex(`^\\S*${PROBE.wrongSecretSuffix}$`, wrong.client_secret) },
    }),
    // The example (what the Pact mock answers) is 401; a provider may answer either. The Error body is
    // what the contract documents for both (any detail).
    status: MatchersV3.matchStatus(401, [...TOKEN_REFUSED]),
    responseBody: refused('Invalid client credentials.'),
    drive: ({ client }) =>
      client
        .request({ method: 'POST', path: TOKEN_PATH, auth: 'none', integrator: 'none', body: wrong })
        .then((r) => ({ status: r.status, body: r.body })),
  };
}

/**
 * The pairing suite's steps a stateless mock can answer (suites/pairing): an OTP that is malformed or
 * never valid, refused 400 (one interaction per probe of the suite, the OTP exact; no OTP is spent),
 * an OTP already used, refused 400 (its provider state pairs with it first), and a pairing without a
 * webhook URL whose name, of spaces, punctuation and non-ASCII letters, is echoed exactly (no webhook
 * key). The suite's one-time scenario (the same request accepted, then refused) and unpair revoking
 * need a service keeping state: the suite skips them under the pact.
 */
function pairingSteps(): HttpInteraction[] {
  const list: HttpInteraction[] = PAIRING_PROBES.badOtps.map(([label, otp]): HttpInteraction => {
    const body = { name: EXAMPLE.pairingName, otp };
    return {
      description: `pair with a malformed or never-valid OTP is refused: ${label}`,
      state: STATE.paired,
      operationId: 'pair',
      method: 'POST',
      path: pathOf('pair'),
      headers: INTEGRATOR,
      // Built by hand: the OTP breaks PairRequest's pattern on purpose (what the probe is about).
      body: { name: MatchersV3.like(body.name), otp },
      status: 400,
      responseBody: schemaToMatcher('Error', { detail: 'Invalid or expired one-time password.' }),
      drive: ({ client }) =>
        client.request({ method: 'POST', path: pathOf('pair'), auth: 'none', body }).then((r) => ({ status: r.status, body: r.body })),
    };
  });
  // A consumed OTP (sandbox.md: valid exactly once), refused 400. The name is exact and its own, so
  // that no other pairing request (the probes, the echoed name, one without the integrator header)
  // matches this interaction in a mock, nor this request theirs.
  const consumed = { name: `${EXAMPLE.pairingName}-again`, otp: '654321' };
  list.push({
    description: 'pair with a one-time password already used is refused',
    state: STATE.consumedOtp,
    operationId: 'pair',
    method: 'POST',
    path: pathOf('pair'),
    headers: INTEGRATOR,
    body: { name: consumed.name, otp: fromState('${otp}', consumed.otp, VALID_OTP) },
    status: 400,
    responseBody: schemaToMatcher('Error', { detail: 'Invalid or expired one-time password.' }),
    drive: ({ client }) =>
      client
        .request({ method: 'POST', path: pathOf('pair'), auth: 'none', body: consumed })
        .then((r) => ({ status: r.status, body: r.body })),
  });
  const named = { name: PAIRING_PROBES.echoedName, otp: EXAMPLE.otp };
  list.push({
    description: 'pair without a webhook URL: the name, of spaces, punctuation and non-ASCII letters, is echoed exactly',
    state: STATE.otp,
    operationId: 'pair',
    method: 'POST',
    path: pathOf('pair'),
    headers: INTEGRATOR,
    body: schemaToMatcher('PairRequest', named, {
      mode: 'request',
      inject: { name: named.name, otp: fromState('${otp}', EXAMPLE.otp, VALID_OTP) },
    }),
    status: 200,
    responseBody: schemaToMatcher(
      'PairingResult',
      {
        ...responseExample('pair', 200),
        pay_connect_name: named.name,
        client_id: EXAMPLE.clientId,
        client_secret: EXAMPLE.clientSecret,
        webhook_secret_key: null,
      },
      { inject: { pay_connect_name: named.name, webhook_secret_key: null } },
    ),
    drive: ({ client }) =>
      client.request({ method: 'POST', path: pathOf('pair'), auth: 'none', body: named }).then((r) => ({ status: r.status, body: r.body })),
  });
  return list;
}

/** Every HTTP interaction of the pact, in a stable order. */
export function httpInteractions(): HttpInteraction[] {
  return [
    ...pairingAndConfig(),
    ...OUTCOMES.flatMap(outcomeInteractions),
    ...paymentMethods(),
    ...scenarioRequests(),
    ...authProbes(),
    ...pairingSteps(),
    ...operationsStarted(),
    ...preauthPolls(),
  ];
}

/** Pairing, the token, unpairing and the configuration: the interactions of a paired terminal's life. */
function pairingAndConfig(): HttpInteraction[] {
  const list: HttpInteraction[] = [pair(), token()];
  // Every 2xx the contract documents: 200 (public profile) or 204 (sandbox profile).
  list.push(
    simple('unpair the terminal', STATE.unpairable, 'unpair', 'POST', undefined, MatchersV3.matchStatus(200, successStatuses('unpair'))),
  );
  list.push(
    simple(
      'read the terminal configuration',
      STATE.paired,
      'getConfig',
      'GET',
      schemaToMatcher('Configuration', responseExample('getConfig', 200)),
    ),
  );
  return list;
}

/** A payment the terminal ends with outcome `o`: generated, polled to its final status, its slip fetched. */
function outcomeInteractions(o: (typeof OUTCOMES)[number]): HttpInteraction[] {
  const list: HttpInteraction[] = [];
  const generate = { amount: o.amount, client_transaction_id: `order-${o.slug}` };
  list.push(
    withBody(
      `generate a payment the terminal ends ${o.slug === 'tip' ? 'with a tip' : o.final}`,
      STATE.paired,
      'generateTransaction',
      pathOf('generateTransaction'),
      pathOf('generateTransaction'),
      'GenerateRequest',
      generate,
      created(o.exampleId),
      o.amountPattern,
    ),
  );
  const record = {
    ...responseExample('getTransactionStatus', 200),
    transaction_id: o.exampleId,
    client_transaction_id: generate.client_transaction_id,
    status: o.final,
    amount: o.amount,
    tip_amount: o.tip,
    total_amount: o.amount + o.tip,
  };
  list.push({
    ...simple(
      `poll the status of ${o.state}`,
      o.state,
      'getTransactionStatus',
      'GET',
      schemaToMatcher('TransactionRecord', record, { include: RECORD_FIELDS }),
    ),
    path: txPath('getTransactionStatus', 'transactionId', o.exampleId),
    drive: ({ client }) => send(client, 'GET', concrete('getTransactionStatus', o.exampleId)),
  });
  const slip = {
    ...responseExample('getPrintSlip', 200),
    transaction_id: o.exampleId,
    status: o.final,
    amount: o.amount,
    tip_amount: o.tip,
    total_amount: o.amount + o.tip,
  };
  list.push({
    ...simple(`fetch the print slip of ${o.state}`, o.state, 'getPrintSlip', 'GET', schemaToMatcher('PrintSlip', slip)),
    path: txPath('getPrintSlip', 'transactionId', o.exampleId),
    drive: ({ client }) => send(client, 'GET', concrete('getPrintSlip', o.exampleId)),
  });
  return list;
}

/** The operations that start or change a transaction: cancel, preauthorization, refunds, increment, complete, revert. */
function operationsStarted(): HttpInteraction[] {
  const list: HttpInteraction[] = [];
  list.push({
    ...simple('cancel a transaction in progress', STATE.inProgress, 'cancelTransaction', 'POST', schemaToMatcher('CancelAccepted', {})),
    path: txPath('cancelTransaction', 'transactionId', EXAMPLE_IDS.inProgress),
    drive: ({ client }) => send(client, 'POST', concrete('cancelTransaction', EXAMPLE_IDS.inProgress)),
  });
  list.push(
    withBody(
      'start a preauthorization',
      STATE.paired,
      'startPreauth',
      pathOf('startPreauth'),
      pathOf('startPreauth'),
      'PreauthRequest',
      requestExample('startPreauth'),
      created(EXAMPLE_IDS.preauth),
    ),
  );
  list.push(
    withBody(
      'start an independent refund',
      STATE.paired,
      'independentRefund',
      pathOf('independentRefund'),
      pathOf('independentRefund'),
      'IndependentRefundRequest',
      requestExample('independentRefund'),
      created(EXAMPLE_IDS.refund),
    ),
  );
  list.push(
    withBody(
      'refund part of a successful transaction',
      STATE.success,
      'linkedRefund',
      txPath('linkedRefund', 'transactionId', 'tx_example_success'),
      concrete('linkedRefund', 'tx_example_success'),
      'LinkedRefundRequest',
      requestExample('linkedRefund'),
      created(EXAMPLE_IDS.linkedRefund),
    ),
  );
  list.push(
    withBody(
      'increment a successful preauthorization',
      STATE.preauth,
      'preauthIncrement',
      txPath('preauthIncrement', 'transactionId', EXAMPLE_IDS.preauth),
      concrete('preauthIncrement', EXAMPLE_IDS.preauth),
      'PreauthOperationRequest',
      requestExample('preauthIncrement'),
      reference(EXAMPLE_IDS.increment, EXAMPLE_IDS.preauth),
    ),
  );
  list.push(
    withBody(
      'complete a successful preauthorization',
      STATE.preauth,
      'preauthComplete',
      txPath('preauthComplete', 'transactionId', EXAMPLE_IDS.preauth),
      concrete('preauthComplete', EXAMPLE_IDS.preauth),
      'PreauthOperationRequest',
      { amount: 10000 },
      reference(EXAMPLE_IDS.complete, EXAMPLE_IDS.preauth),
    ),
  );
  list.push({
    ...simple(
      'revert the most recent successful transaction',
      STATE.success,
      'revertTransaction',
      'POST',
      reference(EXAMPLE_IDS.revert, 'tx_example_success'),
    ),
    path: txPath('revertTransaction', 'transactionId', 'tx_example_success'),
    drive: ({ client }) => send(client, 'POST', concrete('revertTransaction', 'tx_example_success')),
  });
  return list;
}

/** The polls of a preauthorization: its status, an increment's operation and the complete's. */
function preauthPolls(): HttpInteraction[] {
  const list: HttpInteraction[] = [];
  const preauth = { ...responseExample('getTransactionStatus', 200), transaction_id: EXAMPLE_IDS.preauth, status: 'SUCCESS' };
  list.push({
    ...simple(
      `poll the status of ${STATE.preauth}`,
      STATE.preauth,
      'getTransactionStatus',
      'GET',
      schemaToMatcher('TransactionRecord', preauth, { include: ['transaction_id'] }),
    ),
    path: txPath('getTransactionStatus', 'transactionId', EXAMPLE_IDS.preauth),
    drive: ({ client }) => send(client, 'GET', concrete('getTransactionStatus', EXAMPLE_IDS.preauth)),
  });
  list.push({
    ...simple(
      'poll an operation of a preauthorization',
      STATE.operation,
      'getOperation',
      'GET',
      schemaToMatcher('OperationRecord', {
        ...responseExample('getOperation', 200),
        operation_id: EXAMPLE_IDS.increment,
        transaction_id: EXAMPLE_IDS.preauth,
      }),
    ),
    path: txPath('getOperation', 'operationId', EXAMPLE_IDS.increment),
    drive: ({ client }) => send(client, 'GET', concrete('getOperation', EXAMPLE_IDS.increment)),
  });
  list.push({
    ...simple(
      'poll the complete of a preauthorization',
      STATE.completed,
      'getOperation',
      'GET',
      schemaToMatcher('OperationRecord', {
        ...responseExample('getOperation', 200),
        operation_id: EXAMPLE_IDS.complete,
        operation_type: 'transaction.preauth.complete',
        transaction_id: EXAMPLE_IDS.preauth,
        status: 'SUCCESS',
      }),
    ),
    path: txPath('getOperation', 'operationId', EXAMPLE_IDS.complete),
    drive: ({ client }) => send(client, 'GET', concrete('getOperation', EXAMPLE_IDS.complete)),
  });
  return list;
}
