/**
 * The names and the fake example values of the toolkit's pact. Every credential-like value written into
 * a pact is one of these: obviously fake, the same as the contract's own examples, never a value a
 * real service handed out.
 */
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../core/package-root.ts';

/** The consumer: this toolkit (its client, its harness and its webhook receiver). */
export const CONSUMER = 'payconnect-conformance';

/** The provider: a Pay-Connect service that follows the sandbox profile. */
export const PROVIDER = 'pay-connect';

/** The pact file name pact-js gives a consumer/provider pair. */
export const PACT_FILE_NAME = `${CONSUMER}-${PROVIDER}.json`;

/** The committed pact folder (the consumer suite's output). */
export const DEFAULT_PACT_DIR = join(PACKAGE_ROOT, 'contracts', 'pacts');

/** The contract's example values for credentials and ids (all fake: see contracts/pay-connect.openapi.yaml). */
export const EXAMPLE = Object.freeze({
  integratorId: 'integrator-0042',
  clientId: '7f1c2a90-client',
  clientSecret: 'example-client-secret',
  accessToken: 'example-access-token',
  webhookKey: 'example-webhook-key',
  otp: '123456',
  webhookUrl: 'https://integrator.example/webhooks/pay-connect',
  pairingName: 'payconnect-conformance',
});

/**
 * What the auth suite's probes send, so that the pact can tell them from valid calls: an invalid
 * bearer token starts with `invalidTokenPrefix`, another integrator id ends with
 * `otherIntegratorSuffix`, a wrong client_secret ends with `wrongSecretSuffix`.
 */
export const PROBE = Object.freeze({
  invalidTokenPrefix: 'pcc-invalid-',
  otherIntegratorSuffix: '-other',
  wrongSecretSuffix: '-not-the-secret',
});

/**
 * What the pairing suite sends under the pact: its malformed or never-valid OTPs (label, OTP), each
 * refused by an interaction of its own, and the name it expects echoed exactly.
 */
export const PAIRING_PROBES = Object.freeze({
  badOtps: [
    ['five digits', '12345'],
    ['seven digits', '1234567'],
    ['letters', 'abcdef'],
    ['digits and letters', '12ab56'],
    ['empty', ''],
    ['never valid: 000000', '000000'],
  ] as readonly (readonly [string, string])[],
  echoedName: 'Blagajna 3 – Šiška "pcc"',
});

/**
 * The payment suite's generate bodies that break the contract's GenerateRequest (label, body from the
 * base amount), each to be refused 400. Under the pact the base amount is {@link PACT_BASE_AMOUNT},
 * and each body as sent then is refused by an interaction of its own.
 */
export const INVALID_GENERATE_BODIES: readonly (readonly [string, (base: number) => Record<string, unknown>])[] = Object.freeze([
  ['amount 0', () => ({ amount: 0 })],
  ['amount -1', () => ({ amount: -1 })],
  ['amount 1.5', () => ({ amount: 1.5 })],
  ['an amount given as a string', (base: number) => ({ amount: String(base) })],
  ['a missing amount', () => ({})],
] as const);

/**
 * The amount the scenarios start from: against the Pact mock exactly this (the catalogue's literal
 * bodies carry it), elsewhere spread by the seed (suites/_setup/steps/payment.ts, baseAmount).
 */
export const PACT_BASE_AMOUNT = 1000;

/** Fake values the pact must never hold anything but: the test of the pact file's secrets checks them. */
export const FAKE_SECRET_VALUES: readonly string[] = [EXAMPLE.clientSecret, EXAMPLE.accessToken, EXAMPLE.webhookKey];
