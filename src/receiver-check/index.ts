/** `check-receiver`: judges an integrator's webhook endpoint by sending it genuine and forged deliveries. */
export { RECEIVER_CAPABILITY, TIMEOUTS_IN_A_ROW, capFor, checkReceiver, timedOut, type CheckReceiverOptions } from './check-receiver.ts';
export {
  ANSWERED_IN_TIME,
  OVERSIZED_BYTES,
  RECEIVER_RULES,
  RULE_IDS,
  meets,
  type Expectation,
  type PlannedDelivery,
  type ReceiverRule,
} from './rules.ts';
