/**
 * `verify-certificate REPORTS_DIR --public-key FILE`: whether a signed run's reports are what the
 * signer's run produced (src/attest/verify.ts). Exit 0 valid (authentic and partial too: VALID, PARTIAL),
 * 1 invalid (every reason listed), 2 a
 * usage error (no such folder, no certificate, a key that is not an Ed25519 public key).
 */
import { ToolkitError } from '../../core/index.ts';
import { formatCommandHelp, parseCommandLine, type CommandSpec } from '../../config/index.ts';
import type { RunIo } from '../../engine/index.ts';
import { defineCommand } from '../command.ts';

/** `verify-certificate`: a signed run's reports folder and the signer's public key. */
export const VERIFY_CERTIFICATE_COMMAND = {
  name: 'verify-certificate',
  synopsis: '<reports dir> --public-key <file>',
  about:
    "Checks a signed run's reports folder (certificate.intoto.json beside its reports): the signature, the digest " +
    'of every subject (every report file: summary.json, the transcript, certification.md and .html, junit.xml, ' +
    'coverage.json, the Allure results; a file added after signing is refused too; and the contract and sources of ' +
    'the installed toolkit, which must be the version that ran), that the tests listed are the complete set the ' +
    "toolkit's suites declare (else VALID, PARTIAL), and that re-judging the transcript gives the signed verdict.",
  positionals: { what: 'the reports folder of a run signed with --sign-key' },
  sections: [
    {
      heading: 'Flags',
      flags: [
        {
          name: 'public-key',
          type: 'string',
          placeholder: '<file>',
          description: "The signer's Ed25519 public key (PEM), e.g. openssl pkey -in signing.pem -pubout",
        },
      ],
    },
  ],
  notes: 'Exit 0 valid (VALID; VALID, PARTIAL: authentic, part of the tests), 1 invalid (every reason), 2 usage error.',
} as const satisfies CommandSpec;

const HINT = 'run "payconnect-conformance verify-certificate --help" for the usage';

export async function verifyCertificateCommand(argv: string[], _env: NodeJS.ProcessEnv, io: RunIo): Promise<number> {
  const parsed = parseCommandLine(VERIFY_CERTIFICATE_COMMAND, argv);
  if (parsed.help) {
    io.stdout(formatCommandHelp(VERIFY_CERTIFICATE_COMMAND));
    return 0;
  }
  const [dir, ...extra] = parsed.positionals;
  if (!dir) throw new ToolkitError('PCC_USAGE', 'verify-certificate needs the reports folder of a signed run', HINT);
  if (extra.length > 0) throw new ToolkitError('PCC_USAGE', `unexpected argument ${JSON.stringify(extra[0])}`, HINT);
  if (!parsed.values['public-key'])
    throw new ToolkitError('PCC_USAGE', 'verify-certificate needs --public-key', "give the signer's Ed25519 public key (PEM)");
  const { loadPublicKey, verifyCertificate } = await import('../../attest/index.ts');
  const publicKey = loadPublicKey(parsed.values['public-key']);
  const { CONTRACT_FILE, PACKAGE_ROOT } = await import('../../engine/index.ts');
  const { declaredTestNames } = await import('../../engine/test-index.ts');
  const { rejudgeVerdict } = await import('../rejudge-verdict.ts');
  const result = await verifyCertificate({
    dir,
    publicKey,
    root: PACKAGE_ROOT,
    contractFile: CONTRACT_FILE,
    requiredTests: () => declaredTestNames(PACKAGE_ROOT),
    rejudge: rejudgeVerdict,
  });
  const p = result.statement?.predicate;
  const facts = p
    ? ` (${p.result}; ${p.passedTests.length} passed, ${p.warnedTests.length} warned, ${p.failedTests.length} ` +
      `failed, ${(p.skippedTests ?? []).length} skipped; key id ${result.keyid?.slice(0, 16) ?? '?'}…)`
    : '';
  if (result.valid && result.partial) {
    io.stdout(`VALID, PARTIAL: ${dir} is what the signer's run produced${facts}, but not the complete set of tests: ${result.partial}\n`);
    return 0;
  }
  if (result.valid) {
    io.stdout(`VALID: ${dir} is what the signer's run produced${facts}\n`);
    return 0;
  }
  io.stdout(`INVALID: ${dir}${facts}\n${result.reasons.map((r) => `  - ${r}\n`).join('')}`);
  return 1;
}

export default defineCommand({ spec: VERIFY_CERTIFICATE_COMMAND, run: verifyCertificateCommand });
