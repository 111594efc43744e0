/** What the send activities share: the configured node of a CAIP-2 chain, and signing refusals as 400s. */
import { EVM_RPC_URLS_VARIABLE, SigningError, type TEvmRpc } from '@latchkey/crypto';
import { AppError } from '@latchkey/domain';
import type { TEngineServices } from '../../engine/services.js';

/**
 * The node of `caip2`, configured by LATCHKEY_EVM_RPC_URLS.
 * @throws AppError BAD_REQUEST naming the variable and the chains it configures
 */
export function evmChainOf(services: TEngineServices, caip2: string): TEvmRpc {
  const rpc = services.evm?.get(caip2);
  if (rpc) return rpc;
  const configured = [...(services.evm?.keys() ?? [])];
  throw new AppError(
    'BAD_REQUEST',
    `caip2: ${caip2} is not configured on this Latchkey; the operator adds it to ${EVM_RPC_URLS_VARIABLE} (configured: ${configured.length > 0 ? configured.join(', ') : 'none'})`,
    { field: 'caip2', variable: EVM_RPC_URLS_VARIABLE, configured },
  );
}

/** A SigningError (bytes the signer refuses) → a 400 with its message. */
export function signingRefusal<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof SigningError) throw new AppError('BAD_REQUEST', e.message);
    throw e;
  }
}
