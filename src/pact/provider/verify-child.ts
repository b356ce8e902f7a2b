/**
 * The verification process (see verify-isolated.ts): Pact's core prints its own report, with whatever
 * bodies it compared, straight to this process's stdout, which the parent discards. Only the report,
 * redacted here by the run's redactor, goes back, over IPC.
 */
import { runVerification, type VerifyOptions } from './verify.ts';

process.once('message', (msg: { options: VerifyOptions }) => {
  runVerification(msg.options).then(
    (report) => process.send!({ report }, () => process.exit(0)),
    (e: unknown) => process.send!({ error: e instanceof Error ? e.message : String(e) }, () => process.exit(1)),
  );
});
