import { MessageHolderTestRuntime, setGlobalTestRuntime } from 'allure-js-commons/sdk/runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestMeta } from '../core/index.ts';
import { allureRuntimeInstalled, reportToAllure } from './allure-evidence.ts';

const meta: TestMeta = {
  capability: 'config',
  clause: 'spec#configuration',
  parameters: { terminal: 'auto' },
  exchanges: [
    {
      seq: 1,
      request: {
        method: 'POST',
        url: 'http://sim/v1/pay-connect/pair/',
        path: '/v1/pay-connect/pair/',
        headers: {},
        body: { otp: '[REDACTED]' },
      },
      response: { status: 200, headers: {}, body: { client_secret: '[REDACTED]' } },
    },
    {
      seq: 2,
      request: { method: 'GET', url: 'http://sim/v1/pay-connect/config/', path: '/v1/pay-connect/config/', headers: {} },
      error: { code: 'PCC_TIMEOUT', message: 'no answer' },
    },
  ],
  findings: [{ check: 'response.schema', severity: 'failure', clause: 'spec#configuration', message: 'missing terminal_id' }],
};

afterEach(() => {
  setGlobalTestRuntime(undefined as never);
  vi.restoreAllMocks();
});

describe('reportToAllure', () => {
  it('does nothing, and prints nothing, without an Allure runtime', async () => {
    const log = vi.spyOn(console, 'log');
    const warn = vi.spyOn(console, 'warn');
    expect(allureRuntimeInstalled()).toBe(false);
    await reportToAllure(meta);
    expect(log).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });

  it('tells an installed runtime the feature, the clause link, the parameters, a step per exchange and finding', async () => {
    const runtime = new MessageHolderTestRuntime();
    setGlobalTestRuntime(runtime);
    expect(allureRuntimeInstalled()).toBe(true);
    await reportToAllure(meta);
    const messages = runtime.messages();
    const metadata = messages.filter((m) => m.type === 'metadata').map((m) => m.data);
    expect(metadata).toContainEqual({ labels: [{ name: 'feature', value: 'config' }] });
    expect(metadata).toContainEqual({ links: [{ url: 'spec#configuration', name: 'spec#configuration', type: 'clause' }] });
    expect(metadata).toContainEqual({ parameters: [{ name: 'terminal', value: 'auto' }] });
    const shape = messages.flatMap((m) =>
      m.type === 'step_start'
        ? [`start ${m.data.name}`]
        : m.type === 'attachment_content'
          ? [`attach ${m.data.name}`]
          : m.type === 'step_stop'
            ? ['stop']
            : [],
    );
    expect(shape).toEqual([
      'start POST /v1/pay-connect/pair/ → 200',
      'attach request',
      'attach response',
      'stop',
      'start GET /v1/pay-connect/config/ → PCC_TIMEOUT',
      'attach request',
      'attach error',
      'stop',
      'start [response.schema] failure: missing terminal_id',
      'attach finding',
      'stop',
    ]);
  });

  it("reaches the runtime of another copy of allure-js-commons (an integrator's allure-vitest of another version)", async () => {
    const holder = new MessageHolderTestRuntime();
    const foreign = new Proxy(
      {},
      {
        get: (_, key) => {
          const v: unknown = Reflect.get(holder, key);
          return typeof v === 'function' ? v.bind(holder) : v;
        },
      },
    );
    setGlobalTestRuntime(foreign as MessageHolderTestRuntime);
    expect(foreign instanceof MessageHolderTestRuntime).toBe(false);
    await reportToAllure(meta);
    expect(holder.messages().filter((m) => m.type === 'step_start')).toHaveLength(3);
  });
});
