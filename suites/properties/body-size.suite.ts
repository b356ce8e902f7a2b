/**
 * A body over a size limit. The spec shows none (spec#limits: "Rate limits, size limits, time-outs
 * and OTP validity: not shown"), the contract documents 413 for every POST, and the embedded
 * simulator refuses a body over 64 KiB with it. So no answer to an oversized body is required: each
 * POST gets one and its answer is recorded (coverage), and what is judged is only what the documents
 * require of the request whatever its size, so that nothing it could be accepted as does any harm:
 * - every bearer operation carries a bearer token the service never issued: spec#authentication,
 *   "Authentication is required for every request except pairing", wants it refused (413 or 401
 *   alike); path ids name nothing;
 * - pairing sends the OTP 000000 (sandbox#pairing: "`000000` is never valid"; a pairing wrongly made
 *   is unpaired again) and the token endpoint a grant_type that is not client_credentials (spec#endpoints:
 *   `grant_type` (string, `client_credentials`)): an invalid request body, refused with a 4xx.
 */
import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { operations } from '../../src/generated/contract.ts';
import { scenario } from '../../src/suite.ts';
import { disposeUnwantedPairing, unknownId } from '../_setup/steps/pairing.ts';

/** Over the embedded simulator's 64 KiB; far over any body the contract's requests need (under 1 KiB). */
const OVERSIZED_BYTES = 72 * 1024;

/** A JSON object of `fields` padded to {@link OVERSIZED_BYTES}. */
function oversized(fields: Record<string, string>): string {
  const head = JSON.stringify({ ...fields, pcc_padding: '' });
  return `${head.slice(0, -2)}${'x'.repeat(OVERSIZED_BYTES - head.length)}"}`;
}

const posts = operations.filter((o) => o.method === 'POST');

// Each on its lane's own pairing, with nothing a correct service accepts: on every lane at once.
describe('properties: a body over a size limit', () => {
  for (const op of posts) {
    scenario(
      `${op.operationId}: a body over 64 KiB is answered (any size limit recorded)`,
      {
        capability: 'properties',
        clause: 'spec#limits',
        needs: { stateful: 'the Pact mock has no interaction for an oversized body: it would answer that, not the service' },
      },
      async (t) => {
        const p = await t.harness.primary(t.scope);
        const params = Object.fromEntries([...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, unknownId(t)]));
        t.param('body bytes', OVERSIZED_BYTES);
        if (op.operationId === 'pair') {
          const res = await t.scope.call(p, 'pair', { rawBody: oversized({ name: `pcc-oversized-${t.harness.ctx.seed}`, otp: '000000' }) });
          t.scope.check('request.invalid-rejected', res.exchange, { probe: 'an oversized body with the never-valid OTP 000000' });
          await disposeUnwantedPairing(t, p, res);
        } else if (op.operationId === 'getToken') {
          const res = await t.scope.call(p, 'getToken', {
            rawBody: oversized({ grant_type: 'pcc-oversized', client_id: 'pcc-oversized', client_secret: 'pcc-oversized' }),
          });
          t.scope.check('request.invalid-rejected', res.exchange, {
            probe: 'an oversized body whose grant_type is not client_credentials',
          });
        } else {
          const res = await t.scope.call(p, op.operationId, {
            params,
            rawBody: oversized({}),
            auth: { bearer: `pcc-invalid-${randomBytes(24).toString('base64url')}` },
          });
          t.scope.check('auth.invalid-token-refused', res.exchange);
        }
      },
    );
  }
});
