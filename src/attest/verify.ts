/**
 * `verify-certificate`: whether a signed reports folder is what its signer's run produced. Every
 * reason it is not is given, not the first: the signature, each subject's digest (every report file, a
 * file added after signing too), the tests listed
 * against the complete set the toolkit's suites declare (as OpenActive's validator does), and the
 * verdict that re-judging the transcript gives against the one signed.
 */
import { type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolkitError } from '../core/index.ts';
import { type Envelope, keyIdOf, verifyEnvelope } from './dsse.ts';
import { subjectsOf } from './sign.ts';
import {
  CERTIFICATE_FILE,
  INTOTO_PAYLOAD_TYPE,
  STATEMENT_TYPE,
  SUBJECTS,
  type Statement,
  TEST_RESULT_PREDICATE,
  signedFilesOf,
} from './statement.ts';

/** What re-judging a transcript gives: the verdict and the tests that failed. */
export interface Rejudged {
  verdict: 'pass' | 'fail';
  failedTests: string[];
}

export interface VerifyOptions {
  dir: string;
  publicKey: KeyObject;
  /** The installed toolkit's root (its contract and sources are the subjects' other half). */
  root: string;
  contractFile: string;
  /** The tests the installed suites declare for the given suites (default all). */
  requiredTests: (suites?: readonly string[]) => Promise<string[]>;
  /** Re-judges the folder's transcript offline. */
  rejudge: (dir: string) => Promise<Rejudged>;
}

export interface Verification {
  /** Authentic: what the signer's run produced, every signed file as signed. */
  valid: boolean;
  reasons: string[];
  /**
   * Authentic but not the complete set of tests (a run restricted by --suite or --grep, or one
   * shard): what the run left out. Such a package is no evidence of the whole API.
   */
  partial?: string;
  /** The key id of the signature (when the envelope could be read). */
  keyid?: string;
  statement?: Statement;
}

/** Tests that are verdicts over the whole run (not declared by any suite file). */
const WHOLE_RUN = / \(over the whole run\)$/;

function readEnvelope(dir: string): Envelope {
  const file = join(dir, CERTIFICATE_FILE);
  if (!existsSync(join(dir, SUBJECTS.summary)))
    throw new ToolkitError(
      'PCC_USAGE',
      `${dir} is not a reports folder (no ${SUBJECTS.summary})`,
      'give the reports folder of a signed run (run --sign-key ... --reports <dir>)',
    );
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ToolkitError(
      'PCC_USAGE',
      `${file} cannot be read as a certificate (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      'the run must be signed: run --sign-key <ed25519 key>',
      { cause: e },
    );
  }
  const env = data as Partial<Envelope>;
  if (typeof env.payload !== 'string' || typeof env.payloadType !== 'string' || !Array.isArray(env.signatures)) {
    throw new ToolkitError(
      'PCC_USAGE',
      `${file} is not a DSSE envelope (payloadType, payload, signatures)`,
      'give the certificate.intoto.json a signed run wrote',
    );
  }
  return env as Envelope;
}

/** Why the signed subjects disagree with the folder and the installed toolkit: each file changed, missing or added after signing. */
function subjectReasons(opts: VerifyOptions, statement: Statement): string[] {
  const reasons: string[] = [];
  // Each subject against the folder's files and the installed toolkit's.
  const actual = new Map(subjectsOf(opts.dir, opts.root, opts.contractFile).map((s) => [s.name, s.digest.sha256]));
  for (const s of statement.subject) {
    const now = actual.get(s.name);
    const what =
      s.name === SUBJECTS.contract
        ? 'the contract of the installed toolkit'
        : s.name === SUBJECTS.toolkit
          ? 'the installed toolkit'
          : s.name;
    if (now === undefined) reasons.push(`${s.name} is missing from the folder`);
    else if (now !== s.digest.sha256) {
      reasons.push(
        s.name === SUBJECTS.contract || s.name === SUBJECTS.toolkit
          ? `${what} differs from the one the run used (sha256 ${now.slice(0, 12)}…, signed ${s.digest.sha256.slice(0, 12)}…): ` +
              `verify with the toolkit version the certificate names`
          : `${s.name} was changed after signing (sha256 ${now.slice(0, 12)}…, signed ${s.digest.sha256.slice(0, 12)}…)`,
      );
    }
  }
  for (const name of [SUBJECTS.transcript, SUBJECTS.summary]) {
    if (!statement.subject.some((s) => s.name === name)) reasons.push(`the certificate does not cover ${name}`);
  }
  // A file a reader may trust that the signature does not cover: put there, or replaced, after signing.
  const signed = new Set(statement.subject.map((s) => s.name));
  for (const name of signedFilesOf(opts.dir).filter((n) => !signed.has(n)))
    reasons.push(`${name} is not covered by the certificate: it was added after signing`);

  return reasons;
}

/** Verifies a signed reports folder; every reason it fails is listed. */
export async function verifyCertificate(opts: VerifyOptions): Promise<Verification> {
  const envelope = readEnvelope(opts.dir);
  const reasons: string[] = [];
  const keyid = envelope.signatures[0]?.keyid;
  if (envelope.payloadType !== INTOTO_PAYLOAD_TYPE) reasons.push(`the payload type is ${envelope.payloadType}, not ${INTOTO_PAYLOAD_TYPE}`);
  if (!verifyEnvelope(envelope, opts.publicKey)) {
    reasons.push(
      `the signature does not verify with the public key given (key id ${keyIdOf(opts.publicKey).slice(0, 16)}…; ` +
        `the certificate names ${keyid ? `${keyid.slice(0, 16)}…` : 'no key'}): another key signed it, ` +
        `or the certificate was changed`,
    );
  }
  let statement: Statement;
  try {
    statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as Statement;
  } catch {
    return { valid: false, reasons: [...reasons, 'the payload is not JSON'], ...(keyid ? { keyid } : {}) };
  }
  if (statement._type !== STATEMENT_TYPE || statement.predicateType !== TEST_RESULT_PREDICATE || !statement.predicate) {
    reasons.push(
      `the payload is not an in-toto statement with the test-result predicate (${String(statement._type)}, ${String(statement.predicateType)})`,
    );
    return { valid: false, reasons, ...(keyid ? { keyid } : {}), statement };
  }

  reasons.push(...subjectReasons(opts, statement));

  // The tests listed against the complete set of the installed suites.
  const p = statement.predicate;
  const listed = [...p.passedTests, ...p.warnedTests, ...p.failedTests, ...(p.skippedTests ?? [])];
  const required = await opts.requiredTests();
  const have = new Set(listed);
  const missing = required.filter((t) => !have.has(t));
  // The list is signed: tests missing from it are tests the signer's run did not run, not tampering.
  const suites = (p.configuration[0]?.annotations as { suites?: unknown } | undefined)?.suites;
  const partial =
    missing.length === 0
      ? undefined
      : `${missing.length} test${missing.length === 1 ? '' : 's'} of the complete set ${missing.length === 1 ? 'was' : 'were'} ` +
        `not run (${Array.isArray(suites) ? `suites ${suites.join(', ')}` : 'a run restricted by --grep, or one shard'}; ` +
        `first: ${missing.slice(0, 3).join('; ')})`;
  const known = new Set(required);
  const unknown = listed.filter((t) => !known.has(t) && !WHOLE_RUN.test(t));
  if (unknown.length > 0)
    reasons.push(
      `${unknown.length} test${unknown.length === 1 ? '' : 's'} listed that the toolkit's suites do not declare (first: ${unknown.slice(0, 3).join('; ')})`,
    );

  // The summary and the transcript say what was signed.
  try {
    const summary = JSON.parse(readFileSync(join(opts.dir, SUBJECTS.summary), 'utf8')) as { verdict?: string };
    if ((summary.verdict === 'fail') !== (p.result === 'FAILED'))
      reasons.push(`summary.json's verdict (${summary.verdict}) is not the signed result (${p.result})`);
  } catch {
    reasons.push('summary.json is not JSON');
  }
  if (existsSync(join(opts.dir, SUBJECTS.transcript))) {
    try {
      const again = await opts.rejudge(opts.dir);
      if ((again.verdict === 'fail') !== (p.result === 'FAILED'))
        reasons.push(`re-judging the transcript gives ${again.verdict}, not the signed result (${p.result})`);
      const signedFailed = new Set(p.failedTests);
      const diff = [
        ...again.failedTests.filter((t) => !signedFailed.has(t)).map((t) => `${t} fails now`),
        ...p.failedTests.filter((t) => !again.failedTests.includes(t)).map((t) => `${t} passes now`),
      ];
      if (diff.length > 0)
        reasons.push(
          `re-judging the transcript gives other failed tests than signed: ${diff.slice(0, 3).join('; ')}${diff.length > 3 ? '; ...' : ''}`,
        );
    } catch (e) {
      reasons.push(`the transcript cannot be re-judged: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  return { valid: reasons.length === 0, reasons, ...(partial ? { partial } : {}), ...(keyid ? { keyid } : {}), statement };
}
