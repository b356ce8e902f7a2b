/**
 * The request bodies a correct service accepts (see request-bodies.ts declareValidBodies), and the
 * client_transaction_id echo (client-transaction-id.ts): tests of one file, which a worker with
 * several terminals runs side by side, the longest first.
 */
import { declareClientTransactionIdEcho } from './client-transaction-id.ts';
import { declareValidBodies } from './request-bodies.ts';

declareValidBodies(declareClientTransactionIdEcho);
