/**
 * Verification in a child process, so that nothing the Pact core prints (it prints the bodies it
 * compared, and a pairing answer carries credentials) reaches the terminal unredacted: its stdout is
 * discarded, and the redacted report comes back over IPC.
 */
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT, ToolkitError } from '../../core/index.ts';
import type { VerificationReport, VerifyOptions } from './verify.ts';

/** Runs {@link runVerification} in a child process; resolves with its report. */
export function verifyPacts(options: Omit<VerifyOptions, 'redactor'>): Promise<VerificationReport> {
  // Built (dist/), the child is JavaScript; run from source, it needs the tsx loader.
  const built = import.meta.url.endsWith('.js');
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  // Found from the package root: built, this module may be part of a bundle (dist/bundle/) that the
  // child, a program of its own, is not.
  const child = fork(join(PACKAGE_ROOT, built ? 'dist/pact/provider/verify-child.js' : 'src/pact/provider/verify-child.ts'), [], {
    execArgv: built ? [] : ['--import', tsx],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout?.resume();
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString('utf8')).slice(-2000);
  });
  return new Promise<VerificationReport>((resolve, reject) => {
    let settled = false;
    child.once('message', (msg: { report?: VerificationReport; error?: string }) => {
      settled = true;
      if (msg.report) resolve(msg.report);
      else reject(new ToolkitError('PCC_PACT', `the verification failed: ${msg.error ?? 'no report'}`));
    });
    child.once('exit', (code) => {
      if (!settled)
        reject(
          new ToolkitError(
            'PCC_PACT',
            `the verification process ended (${code}) without a report`,
            "run again with PACT_LOG_LEVEL=debug to see the Pact core's log",
            { cause: new Error(stderr) },
          ),
        );
    });
    child.once('error', (e) => {
      if (!settled) reject(new ToolkitError('PCC_PACT', `the verification process did not start: ${e.message}`));
    });
    child.send({ options });
  });
}
