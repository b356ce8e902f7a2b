/**
 * The signed statement of a run: an in-toto Statement v1 whose predicate is the test-result predicate
 * (https://in-toto.io/attestation/test-result/v0.1): the result, the configuration the run had (labels,
 * seed, target host, profile, strictness, toolkit and contract versions), and its tests by outcome.
 * Its subjects are, by SHA-256, every file of the reports folder a reader may trust (summary.json, the
 * transcript, certification.md and .html, junit.xml, coverage.json, the Allure results, ...: all but
 * the certificate itself and the Allure HTML, which is rendered after signing from the signed results),
 * and the contract and the toolkit package.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const TEST_RESULT_PREDICATE = 'https://in-toto.io/attestation/test-result/v0.1';
/** The DSSE payload type of an in-toto statement. */
export const INTOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
/** The file the signed certificate is written to, in the reports folder. */
export const CERTIFICATE_FILE = 'certificate.intoto.json';

/** One subject: a name and its SHA-256 (hex). */
export interface Subject {
  name: string;
  digest: { sha256: string };
}

/** The test-result predicate, with the skipped tests beside the three lists it defines. */
export interface TestResultPredicate {
  result: 'PASSED' | 'WARNED' | 'FAILED';
  configuration: { name: string; annotations: Record<string, unknown> }[];
  passedTests: string[];
  warnedTests: string[];
  failedTests: string[];
  /** Not in v0.1: the tests that did not run to a verdict (blocked, skipped), so the set is complete. */
  skippedTests: string[];
}

export interface Statement {
  _type: typeof STATEMENT_TYPE;
  subject: Subject[];
  predicateType: typeof TEST_RESULT_PREDICATE;
  predicate: TestResultPredicate;
}

/** The SHA-256 (hex) of bytes. */
export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The names subjects carry (their files: in the reports folder, or of the installed toolkit). */
export const SUBJECTS = {
  transcript: 'transcript.jsonl.gz',
  summary: 'summary.json',
  contract: 'contracts/pay-connect.openapi.yaml',
  toolkit: 'payconnect-conformance (package.json and src/)',
} as const;

/**
 * What in a reports folder is not signed: the certificate, and what the Allure HTML step writes after
 * the signature (the HTML report, its history); hidden entries (staging folders of a writer).
 */
const UNSIGNED = new Set([CERTIFICATE_FILE, 'allure-report', 'allure-history.jsonl']);

/** The files of a reports folder that the signature covers, as sorted folder-relative `/` paths. */
export function signedFilesOf(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => !UNSIGNED.has(n) && !n.startsWith('.'))
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? filesUnder(p) : [p];
    })
    .map((f) => relative(dir, f).split(sep).join('/'))
    .sort();
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/**
 * The toolkit package's digest: package.json and every file under src/ (the sources the package
 * ships), each as `path sha256` in path order, hashed. The same installed version gives the same digest.
 */
export function toolkitDigest(root: string): string {
  const files = [join(root, 'package.json'), ...filesUnder(join(root, 'src'))].map((f) => relative(root, f).split(sep).join('/')).sort();
  return sha256(files.map((f) => `${f} ${sha256(readFileSync(join(root, f)))}\n`).join(''));
}
