/**
 * Pairing: a fresh OTP pairs once and gives credentials that work; without a webhook_url there is no
 * webhook key; a consumed, malformed or never-valid OTP does not pair; the name is echoed; unpair
 * revokes the tokens and the client credentials. Pairings made here are unpaired again at the end of
 * their test, so they do not linger in the vault or on the service.
 */
import { describe } from 'vitest';
import { PAIRING_PROBES, type Pairing, type PairingIdentity, ScenarioBlocked } from '../../src/index.ts';
import { scenario, type ScenarioContext } from '../../src/suite.ts';
import { disposeUnwantedPairing, obtainToken, requestToken } from '../_setup/steps/pairing.ts';
import { underPact } from '../_setup/steps/payment.ts';

const capability = 'pairing';

/** The Pact catalogue's example pairing name (src/pact/names.ts, EXAMPLE.pairingName), which its pairing interaction echoes. */
const PACT_PAIRING_NAME = 'payconnect-conformance';

/** What the first pairing test leaves for the later ones (no secrets are needed, but they are kept in memory only). */
const memo: { otp?: string; identity?: PairingIdentity } = {};

function identityOf(p: Pairing): PairingIdentity {
  const c = p.credentials;
  return {
    pay_connect_id: c.pay_connect_id,
    terminal_id: c.terminal_id,
    client_id: c.client_id,
    client_secret: c.client_secret,
    webhook_secret_key: c.webhook_secret_key,
  };
}

type Attempt = NonNullable<Awaited<ReturnType<ScenarioContext['harness']['pairNew']>>>;

/** Pairs by OTP (the harness runs pairing.name-echoed and pairing.webhook-key), or skips/blocks. */
async function pairOrStop(t: ScenarioContext, opts: { webhook: boolean; name: string }): Promise<{ attempt: Attempt; p: Pairing }> {
  // The run's pairing comes first: with a few OTPs only, it must not be left without one.
  await t.harness.primary(t.scope);
  const attempt = await t.harness.pairNew(t.scope, opts);
  if (!attempt) t.skip('this test needs an OTP and none is left (pass another --otp)');
  if (!attempt.pairing) {
    t.scope.check('request.accepted', attempt.response.exchange);
    t.scope.block(`pairing answered ${attempt.response.status}`);
  }
  t.param('name', opts.name);
  return { attempt, p: attempt.pairing };
}

/** Bearer tokens obtained explicitly in the tests, per pairing (used for unpair too). */
const bearers = new WeakMap<Pairing, string>();

/** The pairing's credentials give a token that reads the configuration of the pairing's terminal. */
async function credentialsWork(t: ScenarioContext, p: Pairing): Promise<void> {
  const tok = await obtainToken(t, p, p.credentials);
  const bearer = t.scope.need(tok.bearer, `the token request answered ${tok.res.status} without an access_token`);
  bearers.set(p, bearer);
  const cfg = await t.scope.call(p, 'getConfig', { auth: { bearer } });
  t.scope.check('request.accepted', cfg.exchange);
  if (cfg.status === 200)
    t.scope.check('pairing.terminal-matches-config', {
      pairingTerminalId: p.credentials.terminal_id,
      configTerminalId: (cfg.body as Record<string, unknown> | undefined)?.terminal_id,
    });
}

/** Unpairs a pairing made by this suite and forgets it (the vault entry goes too). */
async function unpairAndForget(t: ScenarioContext, p: Pairing): Promise<void> {
  try {
    const bearer = bearers.get(p);
    const res = await t.scope.call(p, 'unpair', bearer ? { auth: { bearer } } : {});
    t.scope.check('pairing.unpair-accepted', res.exchange);
  } catch (e) {
    // Clean-up only: when the pairing's credentials obtain no token, what the test found stands.
    if (!(e instanceof ScenarioBlocked) || e.blockedBy?.check !== 'auth.token-obtained') throw e;
    t.scope.notes.push(`could not unpair ${p.label}: ${e.message}`);
  } finally {
    await t.harness.forget(p);
  }
}

// One after another, on one terminal: later tests compare with the pairing the first one made, and
// those that pair take the OTPs of that terminal's share. The malformed OTPs spend none and run on
// every lane at once.
describe('pairing', () => {
  scenario(
    'pair with a fresh OTP and a webhook_url: every field, working credentials',
    { capability, clause: 'spec#pairing-result', sequential: true },
    async (t) => {
      // Against the Pact mock the catalogue's example name, which its pairing interaction echoes.
      const { attempt, p } = await pairOrStop(t, {
        webhook: true,
        name: underPact(t) ? PACT_PAIRING_NAME : `pcc-pair-${t.harness.ctx.seed}`,
      });
      memo.otp = (attempt as Attempt & { otp?: string }).otp;
      memo.identity = identityOf(p);
      try {
        await credentialsWork(t, p);
      } finally {
        await unpairAndForget(t, p);
      }
    },
  );

  scenario(
    'pair without webhook_url: webhook_secret_key is null, a terminal of its own',
    {
      capability,
      clause: 'sandbox#pairing',
      needs: {
        stateful:
          'a second pairing with an id and a terminal of its own needs a service that issues them; the mock answers every pairing with the same example credentials',
      },
      sequential: true,
    },
    async (t) => {
      const { p } = await pairOrStop(t, { webhook: false, name: `pcc-nohook-${t.harness.ctx.seed}` });
      try {
        if (memo.identity) {
          t.scope.check('pairing.unique-id', { a: memo.identity, b: identityOf(p) });
          t.scope.check('pairing.own-terminal', { a: memo.identity, b: identityOf(p) });
        }
        await credentialsWork(t, p);
      } finally {
        await unpairAndForget(t, p);
      }
    },
  );

  scenario(
    'the OTP is one-time: a consumed OTP does not pair again',
    {
      capability,
      clause: 'spec#post-v1pay-connectpair',
      needs: {
        stateful:
          'one-time use spans two calls: the same pairing request accepted, then refused, is a sequence of states; a stateless mock gives one fixed answer per request',
      },
      sequential: true,
    },
    async (t) => {
      let otp = memo.otp;
      if (otp === undefined) {
        // The first test did not pair: pair here, so there is a consumed OTP to reuse.
        const { attempt, p } = await pairOrStop(t, { webhook: false, name: `pcc-otp-${t.harness.ctx.seed}` });
        otp = t.scope.need((attempt as Attempt & { otp?: string }).otp, 'the pairing attempt did not say which OTP it used');
        await unpairAndForget(t, p);
      }
      const via = await t.harness.primary(t.scope);
      const res = await t.scope.call(via, 'pair', { body: { name: `pcc-otp-reuse-${t.harness.ctx.seed}`, otp } });
      t.scope.check('pairing.otp-one-time', res.exchange);
      await disposeUnwantedPairing(t, via, res);
    },
  );

  // The same probes are interactions of the Pact catalogue: one list for both.
  for (const [label, otp] of PAIRING_PROBES.badOtps) {
    scenario(`a malformed or never-valid OTP is refused: ${label}`, { capability, clause: 'sandbox#pairing' }, async (t) => {
      t.param('otp', JSON.stringify(otp));
      const via = await t.harness.primary(t.scope);
      const res = await t.scope.call(via, 'pair', { body: { name: `pcc-bad-otp-${t.harness.ctx.seed}`, otp } });
      t.scope.check('pairing.bad-otp-refused', res.exchange);
      t.scope.check('pairing.bad-otp-400', res.exchange);
      await disposeUnwantedPairing(t, via, res);
    });
  }

  scenario('the name supplied at pairing is echoed exactly', { capability, clause: 'spec#pairing-result', sequential: true }, async (t) => {
    // pairing.name-echoed runs in pairNew; a name with spaces, punctuation and non-ASCII letters makes it bite.
    // Against the Pact mock without the seed: its interaction holds the exact name it echoes.
    const name = `${PAIRING_PROBES.echoedName}${underPact(t) ? '' : ` ${t.harness.ctx.seed}`}`;
    const { p } = await pairOrStop(t, { webhook: false, name });
    await unpairAndForget(t, p);
  });

  scenario(
    'unpair revokes: the old token is refused and the client credentials obtain no token',
    {
      capability,
      clause: 'sandbox#pairing',
      needs: {
        stateful:
          'a token that works, then is refused 401 after unpair, is a sequence of states; a stateless mock gives one fixed answer per request',
      },
      sequential: true,
    },
    async (t) => {
      await t.harness.primary(t.scope);
      const p = await t.harness.fresh(t.scope);
      if (typeof p === 'string') return t.skip(p);
      try {
        const tok = await obtainToken(t, p, p.credentials);
        const bearer = t.scope.need(tok.bearer, `the token request answered ${tok.res.status} without an access_token`);
        const before = await t.scope.call(p, 'getConfig', { auth: { bearer } });
        t.scope.check('request.accepted', before.exchange);
        const un = await t.scope.call(p, 'unpair', { auth: { bearer } });
        t.scope.check('pairing.unpair-accepted', un.exchange);
        t.scope.need(un.status >= 200 && un.status < 300, `unpair answered ${un.status}`);
        const after = await t.scope.call(p, 'getConfig', { auth: { bearer } });
        t.scope.check('auth.revoked-after-unpair', after.exchange);
        t.scope.check('auth.refused-401', after.exchange);
        // Asked the way that obtained a token before, so only the unpair can explain a refusal.
        const again = await requestToken(t, p, p.credentials, tok.integrator);
        t.scope.check('auth.credentials-revoked-after-unpair', again.exchange);
      } finally {
        await t.harness.forget(p);
      }
    },
  );
});
