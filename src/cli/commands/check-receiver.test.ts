import { describe, expect, it } from 'vitest';
import { isToolkitError } from '../../core/index.ts';
import { CHECK_RECEIVER_DEFAULTS, TIMEOUT_BOUNDS, parseCheckReceiverArgs, shownUrl } from './check-receiver.ts';

const env = { PAYCONNECT_WEBHOOK_SECRET: 'env-secret-value-42' };

function usageOf(argv: string[], e: NodeJS.ProcessEnv = env): string {
  try {
    parseCheckReceiverArgs(argv, e);
  } catch (err) {
    if (isToolkitError(err) && err.code === 'PCC_USAGE') return err.toUserMessage();
    throw err;
  }
  throw new Error('no usage error');
}

describe('parseCheckReceiverArgs', () => {
  it('reads the flags, with defaults', () => {
    const a = parseCheckReceiverArgs(['--url', 'https://hooks.example/pc'], env);
    expect(a).toMatchObject({
      secret: env.PAYCONNECT_WEBHOOK_SECRET,
      timeoutMs: CHECK_RECEIVER_DEFAULTS.timeoutMs,
      strict: false,
      reports: 'reports/receiver',
      html: true,
    });
    expect(
      parseCheckReceiverArgs(['--url', 'http://127.0.0.1:1/x', '--timeout', '2s', '--strict', '--reports', 'out', '--no-html'], env),
    ).toMatchObject({ timeoutMs: 2000, strict: true, reports: 'out', html: false });
    expect(parseCheckReceiverArgs(['--help'], {})).toBe('help');
    expect(parseCheckReceiverArgs(['--url', 'http://x/', '--timeout', '100ms'], env)).toMatchObject({ timeoutMs: TIMEOUT_BOUNDS.minMs });
    expect(parseCheckReceiverArgs(['--url', 'http://x/', '--timeout', '2m'], env)).toMatchObject({ timeoutMs: TIMEOUT_BOUNDS.maxMs });
  });

  it('usage errors name what is wrong and never the secret', () => {
    expect(usageOf(['--url', 'http://x/'], {})).toMatch(/^PCC_USAGE: no webhook secret key given\n {2}fix: set PAYCONNECT_WEBHOOK_SECRET/);
    expect(usageOf(['--url', 'mailto:a@b'])).toContain('must be http or https, not mailto');
    const flag = usageOf(['--url', 'http://x/', '--webhook-secret=hunter2-secret']);
    expect(flag).toContain('unknown option --webhook-secret: the secret is never given as a flag value');
    expect(flag).not.toContain('hunter2');
    expect(usageOf(['--url'])).toMatch(/^PCC_USAGE: /);
    expect(usageOf(['--url', 'http://x/', 'stray'])).not.toContain('stray');
  });

  it("--disable-check takes the registry's ids (a former id as its current one) and refuses others with a hint", () => {
    expect(parseCheckReceiverArgs(['--url', 'http://x/'], env)).toMatchObject({ disabled: [] });
    expect(
      parseCheckReceiverArgs(
        ['--url', 'http://x/', '--disable-check', 'receiver.valid-accepted', '--disable-check', 'client.webhook-accepted'],
        env,
      ),
    ).toMatchObject({ disabled: ['receiver.valid-accepted'] });
    expect(usageOf(['--url', 'http://x/', '--disable-check', 'receiver.valid-acepted'])).toMatch(
      /^PCC_USAGE: .*receiver\.valid-acepted.*did you mean receiver\.valid-accepted/,
    );
    expect(usageOf(['--url', 'http://x/', '--disable-check', 'client.poll-rate'])).toMatch(/client\.poll-rate.*certify-client/);
  });
});

describe('shownUrl', () => {
  it('redacts credentials and query values, keeps the rest', () => {
    expect(shownUrl(new URL('https://user:pw@hooks.example:8443/pc/hook?token=abc&x=1'))).toBe(
      'https://[REDACTED]@hooks.example:8443/pc/hook?token=[REDACTED]&x=[REDACTED]',
    );
    expect(shownUrl(new URL('http://127.0.0.1:8080/webhooks'))).toBe('http://127.0.0.1:8080/webhooks');
  });
});
