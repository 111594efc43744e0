/**
 * What the send activities (and get_nonces) share: the configured node of a CAIP-2 chain, a node's
 * refusal as a 400 (unreachable: 503), filled fees, and signing refusals as 400s.
 */
import { EVM_RPC_URLS_VARIABLE, EvmRpcError, SigningError, rpcQuantity, type TEvmRpc } from '@latchkey/crypto';
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

/**
 * A node's refusal → a 400 with its message kept; an unreachable node → 503.
 * @throws AppError always (anything but an EvmRpcError is rethrown as is)
 */
export function nodeFailure(rpc: TEvmRpc, what: string, e: unknown): never {
  if (e instanceof EvmRpcError) {
    if (e.code === undefined) throw new AppError('UNAVAILABLE', `${what}: ${e.message}`, { caip2: rpc.caip2 });
    throw new AppError('BAD_REQUEST', `${what}: the ${rpc.caip2} node refused: ${e.message}`, { caip2: rpc.caip2, rpcCode: e.code });
  }
  throw e;
}

/**
 * The fees of a transaction: the caller's where given, else the node's suggested tip and twice the
 * latest base fee plus the tip (room for the base fee to double before the transaction is mined).
 * The tip never exceeds the fee cap.
 */
export async function fillFees(rpc: TEvmRpc, p: { maxFeePerGas?: string | undefined; maxPriorityFeePerGas?: string | undefined }): Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> {
  const tip = p.maxPriorityFeePerGas !== undefined ? BigInt(p.maxPriorityFeePerGas) : rpcQuantity(await rpc.call('eth_maxPriorityFeePerGas', []), 'priority fee');
  let maxFeePerGas: bigint;
  if (p.maxFeePerGas !== undefined) {
    maxFeePerGas = BigInt(p.maxFeePerGas);
  } else {
    const block = await rpc.call<{ baseFeePerGas?: string } | null>('eth_getBlockByNumber', ['latest', false]);
    maxFeePerGas = 2n * rpcQuantity(block?.baseFeePerGas ?? '0x0', 'base fee') + tip;
  }
  return { maxFeePerGas, maxPriorityFeePerGas: tip < maxFeePerGas ? tip : maxFeePerGas };
}
