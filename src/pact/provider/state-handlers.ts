/**
 * The provider states of the pact as pact-js state handlers: each one set up through the public API
 * by the {@link ProviderDriver}, returning the values the interaction takes from it (`transactionId`,
 * `operationId`, `otp`, `webhookUrl`). Teardown frees the terminal for the next interaction.
 */
import { ToolkitError } from '../../core/index.ts';
import type { ProviderDriver } from './provider-states.ts';
import { OUTCOMES, STATE } from '../common/states.ts';

/** A pact-js state handler with setup and teardown. */
export interface StateHandler {
  setup: (params?: unknown) => Promise<Record<string, unknown> | undefined>;
  teardown: () => Promise<undefined>;
}

/** The states the pact uses, as pact-js state handlers; a failed setup is reported to `onError`. */
export function stateHandlers(d: ProviderDriver, onError: (state: string, e: unknown) => void): Record<string, StateHandler> {
  const txn = (slug: (typeof OUTCOMES)[number]['slug']) => async () => ({ transactionId: (await d.outcome(slug)).id });
  // An operation of a successful preauthorization, ended SUCCESS.
  const operated = (op: 'preauthIncrement' | 'preauthComplete', amount: number) => async () => {
    const { p, id } = await d.preauth();
    const res = await d.call(p, op, { params: { transaction_id: id }, body: { amount } });
    const opId = (res.body as { operation_id?: unknown } | undefined)?.operation_id;
    if (res.status !== 200 || typeof opId !== 'string')
      throw new ToolkitError('PCC_PACT', `${op} answered ${res.status} without an operation_id`);
    await d.waitFor(p, 'operation', opId, 'SUCCESS');
    return { operationId: opId };
  };
  const setups: Record<string, () => Promise<Record<string, unknown> | undefined>> = {
    [STATE.otp]: async () => {
      const rx = await d.receiver();
      d.extraReceivers.push(rx);
      return { otp: d.nextOtp('the pairing interaction'), webhookUrl: rx.url };
    },
    [STATE.consumedOtp]: async () => ({ otp: await d.consumedOtp() }),
    [STATE.paired]: async () => {
      await d.paired();
      return undefined;
    },
    [STATE.unpairable]: async () => {
      d.current = await d.pairByOtp('unpair', false);
      d.toForget = d.current;
      return undefined;
    },
    [STATE.inProgress]: async () => {
      const p = await d.paired();
      const id = await d.start(p, 'generateTransaction', { amount: 1254 });
      await d.waitFor(p, 'transaction', id, 'IN_PROGRESS');
      return { transactionId: id };
    },
    [STATE.success]: txn('success'),
    [STATE.declined]: txn('declined'),
    [STATE.failed]: txn('failed'),
    [STATE.expired]: txn('expired'),
    [STATE.tip]: txn('tip'),
    [STATE.preauth]: async () => ({ transactionId: (await d.preauth()).id }),
    [STATE.refund]: async () => {
      const p = await d.paired();
      const id = await d.start(p, 'independentRefund', { amount: 1000 });
      await d.waitFor(p, 'transaction', id, 'SUCCESS');
      return { transactionId: id };
    },
    [STATE.preauthDeclined]: async () => {
      const p = await d.paired();
      const id = await d.start(p, 'startPreauth', { amount: 1051 });
      await d.waitFor(p, 'transaction', id, 'DECLINED');
      return { transactionId: id };
    },
    [STATE.operation]: operated('preauthIncrement', 2000),
    [STATE.completed]: operated('preauthComplete', 10000),
    [STATE.webhooks]: async () => {
      const p = await d.paired();
      if (!p.observable)
        throw new ToolkitError(
          'PCC_PACT',
          'the webhooks of this pairing do not reach the toolkit',
          "pair by OTP in this run (the vault pairing's webhook_url is not a receiver of this run)",
        );
      return undefined;
    },
  };
  const out: Record<string, StateHandler> = {};
  for (const [state, setup] of Object.entries(setups)) {
    out[state] = {
      setup: async () => {
        try {
          return await setup();
        } catch (e) {
          onError(state, e);
          throw e;
        }
      },
      teardown: async () => {
        await d.teardown().catch((e) => onError(state, e));
        if (d.toForget) {
          const p = d.toForget;
          d.toForget = undefined;
          await d.forgetIfRevoked(p);
        }
        return undefined;
      },
    };
  }
  return out;
}

/**
 * The handler of a state the toolkit does not know (an integrator's pact may name any): the interaction
 * runs with the run's pairing and nothing else set up; teardown frees the terminal as for any state.
 */
export function unknownStateHandler(d: ProviderDriver, onError: (state: string, e: unknown) => void, state: string): StateHandler {
  return {
    setup: async () => {
      try {
        await d.paired();
      } catch (e) {
        onError(state, e);
        throw e;
      }
      return undefined;
    },
    teardown: async () => {
      await d.teardown().catch((e) => onError(state, e));
      return undefined;
    },
  };
}
