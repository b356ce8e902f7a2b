/**
 * Errors of the toolkit itself (a bug, a misconfiguration, an unreachable target), as opposed to
 * findings about the service under test. Every error carries a stable code defined here and only here.
 */

/** The stable codes, with the one-line hint shown to the user. */
export const ERROR_CODES = {
  PCC_USAGE: 'a command-line flag or argument is wrong',
  PCC_CONFIG_INVALID: 'the configuration (file, flags or environment) is invalid',
  PCC_TARGET_UNREACHABLE: 'the target service could not be reached',
  PCC_TARGET_TLS: 'the TLS connection to the target failed: its certificate, its host name, a client certificate, or http/https mixed up',
  PCC_PROXY: 'the proxy could not be reached, refused, or could not connect to the target',
  PCC_TARGET_GATEWAY: 'something in front of the service (a gateway, load balancer or proxy) answered with its own error page',
  PCC_TARGET_PRODUCTION: 'the target is a production address and --allow-production was not given',
  PCC_AMOUNT_LIMIT: 'an amount above --max-amount was about to be sent to a non-sandbox target',
  PCC_VAULT_INVALID: 'the vault file is malformed or unreadable',
  PCC_VAULT_WRITE: 'the vault file could not be written',
  PCC_VAULT_INSECURE: 'the vault file is readable by group or others: it holds client secrets',
  PCC_PAIRING_FAILED: 'pairing with the terminal failed',
  PCC_NO_PAIRING: 'no pairing is available (no vault entry and no OTP)',
  PCC_AUTH_FAILED: 'the client credentials did not obtain a token',
  PCC_WEBHOOK_LISTEN: 'the webhook receiver could not listen on the requested address',
  PCC_TIMEOUT: 'a request timed out',
  PCC_RETRY_FORBIDDEN: 'a retry of a state-changing POST was attempted',
  PCC_SIMULATOR: 'the embedded simulator failed',
  PCC_INTERNAL: 'an internal error of the toolkit (a bug: please report it)',
  PCC_REPORT_WRITE: 'a report file could not be written',
  PCC_PACT: 'a Pact operation failed',
} as const;

/**
 * Codes raised when the service's answer, or its silence, stops a request. In a conformance run they
 * are about the service, not the toolkit: the engine reports them as a finding of the check named
 * here (and blocks the tests that need the same thing), never as a toolkit error.
 */
export const SERVICE_CAUSED: Readonly<Partial<Record<keyof typeof ERROR_CODES, string>>> = {
  PCC_AUTH_FAILED: 'auth.token-obtained',
  PCC_TIMEOUT: 'request.answered',
  PCC_TARGET_UNREACHABLE: 'request.answered',
};

/** A stable error code. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** An error of the toolkit, with a stable code and a hint on how to fix it. */
export class ToolkitError extends Error {
  override readonly name = 'ToolkitError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** One clear line for the user: code, what is wrong, how to fix it. */
  toUserMessage(): string {
    return `${this.code}: ${this.message}${this.hint ? `\n  fix: ${this.hint}` : ''}`;
  }
}

/** True when `e` is a ToolkitError (also across module copies, by name and code). */
export function isToolkitError(e: unknown): e is ToolkitError {
  return (
    e instanceof ToolkitError ||
    (typeof e === 'object' &&
      e !== null &&
      (e as { name?: unknown }).name === 'ToolkitError' &&
      typeof (e as { code?: unknown }).code === 'string')
  );
}
