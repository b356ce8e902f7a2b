/**
 * Calling an operation of the contract by its id: the method and the path (its parameters filled in)
 * come from the generated lookups, so no caller spells a path or looks an operation up. The one way
 * the scope, the Pact provider's driver, pairing and unpairing call the API.
 */
import { ToolkitError } from '../core/errors.ts';
import { type OperationId, operationById, pathFor } from '../generated/contract.ts';
import type { PayConnectClient, PayConnectRequest, PayConnectResponse } from './client.ts';

/** A call of an operation: the request without its method and path, plus the path's parameters. */
export type OperationCall = Omit<PayConnectRequest, 'method' | 'path'> & { readonly params?: Readonly<Record<string, string>> };

/**
 * Sends operation `id` through `client`.
 * @throws ToolkitError PCC_INTERNAL, before sending anything, when a path parameter is missing
 */
export function callOperation(
  client: Pick<PayConnectClient, 'request'>,
  id: OperationId,
  call: OperationCall = {},
): Promise<PayConnectResponse> {
  const { params, ...request } = call;
  let path: string;
  try {
    path = pathFor(id, params);
  } catch (e) {
    return Promise.reject(new ToolkitError('PCC_INTERNAL', (e as Error).message, undefined, { cause: e }));
  }
  return client.request({ ...request, method: operationById[id].method, path });
}
