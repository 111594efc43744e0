/**
 * eth_send_transaction (V1 and V2) — Latchkey signs and broadcasts an EIP-1559 transaction from a
 * wallet account (or private key) address, filling what the caller left out from the chain's node
 * (LATCHKEY_EVM_RPC_URLS): the nonce (the node's pending count, past this address's sends still in
 * flight), the fees (twice the latest base fee plus the node's suggested tip) and the gas
 * (eth_estimateGas). The answer is a send status id; the webhook worker's receipt watcher takes
 * it from BROADCASTING to INCLUDED or FAILED, each change a SEND_TRANSACTION_STATUS_UPDATES event.
 *
 * Failure modes, on purpose different:
 * - the call reverts when estimated: nothing is broadcast, the send is FAILED with the revert's
 *   reason (what a mined revert would say, without paying for it);
 * - the node refuses the fill or the transaction (nonce too low), or the sender's balance cannot
 *   cover value + gasLimit × maxFeePerGas: the activity FAILS with the reason and nothing is written;
 * - the node cannot be reached while broadcasting: the send is recorded BROADCASTING anyway, as
 *   it may have arrived; the watcher re-sends the same signed bytes (idempotent) until it is mined.
 *
 * Every refusal is a 4xx and writes nothing (`onFailure: 'reject'`): the gas window's must be a
 * 429 before anything is broadcast, and a send that was refused has no status to follow.
 * Sponsored sends (`sponsor: true`) are `send-sponsored.ts`; multi-call batches are refused (400).
 */
import { EvmRpcError, decodeRevertReason, encodeEip1559Unsigned, ethereumAddress, ethereumTransactionHash, newId, rpcQuantity, signEthereumTransaction, toRpcQuantity } from '@latchkey/crypto';
import {
  AppError,
  ETH_SEND_TRANSACTION_ACTIVITY,
  ZEthSendTransactionIntentSchema,
  sendTransactionCalls,
  type TEthSendTransactionIntent,
  type TEthSendTransactionResult,
} from '@latchkey/domain';
import type { TSendError } from '@latchkey/persistence';
import { exposeParams } from '@latchkey/policy';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { signerFacts } from '../../engine/policy-context.js';
import { withSigningKey } from '../../keys/resolve-signer.js';
import { evmChainOf, nodeFailure, signingRefusal } from './evm-chain.js';
import { sendSponsored } from './send-sponsored.js';

/** The revert an eth_estimateGas / eth_call error carries, if it is one (JSON-RPC code 3, or "execution reverted"). */
export function revertOf(e: unknown): TSendError | undefined {
  if (!(e instanceof EvmRpcError) || e.code === undefined) return undefined;
  const reverted = e.code === 3 || /revert/i.test(e.message);
  if (!reverted) return undefined;
  const reason = decodeRevertReason(e.data);
  return {
    message: reason ? `execution reverted: ${reason.message}` : e.message,
    revertChain: [reason ? { errorType: reason.kind, displayMessage: reason.message } : { errorType: 'unknown', displayMessage: e.message }],
  };
}

export const ethSendTransaction: TActivityDefinition<TEthSendTransactionIntent, TEthSendTransactionResult> = {
  ...ETH_SEND_TRANSACTION_ACTIVITY,
  onFailure: 'reject',
  params: ZEthSendTransactionIntentSchema,
  policyParams: exposeParams({ caip2: 'caip2', from: 'from', sponsor: 'sponsor' }),
  policyFacts: (db, org, p) => signerFacts(db, org, p.from),
  validate(p) {
    if (sendTransactionCalls(p).length > 1) {
      throw new AppError('BAD_REQUEST', 'calls: Latchkey sends one call per transaction (batches are not supported); send each call as its own activity', { field: 'calls' });
    }
    if (!/^0x[0-9a-fA-F]{40}$/.test(p.from)) throw new AppError('BAD_REQUEST', 'from must be the 0x-prefixed Ethereum address of a wallet account or private key (not a private key id)', { field: 'from' });
  },
  async precheck(p, services) {
    evmChainOf(services, p.caip2);
  },
  async handle(ctx, p) {
    const rpc = evmChainOf(ctx.services, p.caip2);
    const [call] = sendTransactionCalls(p);
    if (p.sponsor === true) return sendSponsored(ctx, p, rpc, call!, { nodeFailure, revertOf });
    const from = p.from;
    const value = BigInt(call!.value ?? '0');
    const data = call!.data ?? '0x';
    await ctx.tx.sendTransactions.lockSender(p.caip2, from);

    let nonce: bigint;
    let maxPriorityFeePerGas: bigint;
    let maxFeePerGas: bigint;
    let gasLimit: bigint | undefined;
    let reverted: TSendError | undefined;
    try {
      if (p.nonce !== undefined) {
        nonce = BigInt(p.nonce);
      } else {
        const pending = rpcQuantity(await rpc.call('eth_getTransactionCount', [from, 'pending']), 'nonce');
        const inFlight = (await ctx.tx.sendTransactions.nextNonceInFlight(p.caip2, from)) ?? 0n;
        nonce = pending > inFlight ? pending : inFlight;
      }
      if (p.maxFeePerGas !== undefined && p.maxPriorityFeePerGas !== undefined) {
        maxFeePerGas = BigInt(p.maxFeePerGas);
        maxPriorityFeePerGas = BigInt(p.maxPriorityFeePerGas);
      } else {
        const tip = p.maxPriorityFeePerGas !== undefined ? BigInt(p.maxPriorityFeePerGas) : rpcQuantity(await rpc.call('eth_maxPriorityFeePerGas', []), 'priority fee');
        if (p.maxFeePerGas !== undefined) {
          maxFeePerGas = BigInt(p.maxFeePerGas);
        } else {
          const block = await rpc.call<{ baseFeePerGas?: string } | null>('eth_getBlockByNumber', ['latest', false]);
          maxFeePerGas = 2n * rpcQuantity(block?.baseFeePerGas ?? '0x0', 'base fee') + tip;
        }
        maxPriorityFeePerGas = tip < maxFeePerGas ? tip : maxFeePerGas;
      }
      if (maxPriorityFeePerGas > maxFeePerGas) throw new AppError('BAD_REQUEST', 'maxPriorityFeePerGas must not exceed maxFeePerGas', { field: 'maxPriorityFeePerGas' });
      if (p.gasLimit !== undefined) {
        gasLimit = BigInt(p.gasLimit);
      } else {
        try {
          gasLimit = rpcQuantity(await rpc.call('eth_estimateGas', [{ from, to: call!.to, value: toRpcQuantity(value), data }]), 'gas estimate');
        } catch (e) {
          reverted = revertOf(e);
          if (!reverted) throw e;
        }
      }
    } catch (e) {
      nodeFailure(rpc, 'filling the transaction', e);
    }

    const id = newId();
    const base = { id, organizationId: ctx.organizationId, activityId: ctx.activityId, caip2: p.caip2, fromAddress: from, signerAddress: from, nonce: nonce.toString(), sponsored: false, nativePriceUsd: null };
    if (reverted || gasLimit === undefined) {
      // Simulated and reverted: nothing is signed or broadcast; the send is FAILED with the reason.
      await ctx.tx.sendTransactions.insert({ ...base, txHash: null, signedTransaction: null, status: 'FAILED', error: reverted ?? { message: 'no gas estimate' } }, ctx.now);
      return { sendTransactionStatusId: id };
    }

    // What the node would refuse anyway, said before signing (some nodes, anvil among them, queue
    // an unfunded transaction instead, where it would wait for ever).
    const cost = value + gasLimit * maxFeePerGas;
    let balance: bigint;
    try {
      balance = rpcQuantity(await rpc.call('eth_getBalance', [from, 'pending']), 'balance');
    } catch (e) {
      nodeFailure(rpc, 'reading the balance', e);
    }
    if (balance < cost) {
      throw new AppError('BAD_REQUEST', `insufficient funds: ${from} holds ${balance} wei on ${p.caip2}; the send may cost up to ${cost} wei (value + gasLimit × maxFeePerGas)`, {
        field: 'from',
        balanceWei: balance.toString(),
        maxCostWei: cost.toString(),
      });
    }
    const unsigned = signingRefusal(() => encodeEip1559Unsigned({ chainId: rpc.chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gasLimit, to: call!.to, value, data }));
    const signed = `0x${await withSigningKey(ctx, from, (key) => {
      if (key.curve !== 'CURVE_SECP256K1') throw new AppError('BAD_REQUEST', `from: ${from} is a ${key.curve} key; Ethereum transactions are signed with secp256k1`, { field: 'from' });
      // The key found must be the address's own: `from` is what the chain will see as the sender.
      if (ethereumAddress(key.publicKey).toLowerCase() !== from.toLowerCase()) throw new AppError('BAD_REQUEST', `from: ${from} is not the Ethereum address of the key it names`, { field: 'from' });
      return signingRefusal(() => signEthereumTransaction(key.privateKey, unsigned));
    })}`;
    const txHash = ethereumTransactionHash(signed);
    try {
      await rpc.call('eth_sendRawTransaction', [signed]);
    } catch (e) {
      // Unreachable: it may have arrived; recorded BROADCASTING, the watcher re-sends it.
      if (!(e instanceof EvmRpcError) || e.code !== undefined) nodeFailure(rpc, 'broadcasting the transaction', e);
    }
    await ctx.tx.sendTransactions.insert({ ...base, txHash, signedTransaction: signed, status: 'BROADCASTING', error: null }, ctx.now);
    return { sendTransactionStatusId: id };
  },
};
