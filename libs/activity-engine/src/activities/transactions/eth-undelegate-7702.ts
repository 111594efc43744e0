/**
 * eth_undelegate_7702 (`v1EthUndelegate7702Intent`): clears an account's EIP-7702 delegation — the
 * gas station's, after a sponsored send — so the address is a plain account again. The account
 * sends (and pays for) one type-4 transaction to itself whose one authorization, signed by its own
 * key, delegates to the zero address: EIP-7702 then clears the account's code instead of writing a
 * delegation. The send is tracked like eth_send_transaction's (a send status, the receipt watcher,
 * SEND_TRANSACTION_STATUS_UPDATES events).
 *
 * Why the account pays and not the relayer: the relayer pays only for calls the gas window
 * accounts for (send-sponsored.ts); an undelegation is the account leaving the station, a
 * transaction of its own. Its storage (the station's nonce among it) stays: delegating again
 * resumes the same nonce, so an old signed call cannot be replayed after a round trip.
 *
 * Refusals, each a 400 writing nothing (`onFailure: 'reject'`): an address that is not delegated
 * (nothing to clear), a key that is not the address's own, a balance short of
 * gasLimit × maxFeePerGas, the node's refusal of the transaction. An unreachable node while
 * filling is a 503; while broadcasting, the send is recorded BROADCASTING for the watcher.
 */
import { EvmRpcError, encodeEip7702Unsigned, ethereumAddress, ethereumTransactionHash, newId, rpcQuantity, signEip7702Authorization, signEthereumTransaction } from '@latchkey/crypto';
import { AppError, ETH_UNDELEGATE_7702_ACTIVITY, ZEthUndelegate7702IntentSchema, type TEthUndelegate7702Intent, type TEthUndelegate7702Result } from '@latchkey/domain';
import { exposeParams } from '@latchkey/policy';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { signerFacts } from '../../engine/policy-context.js';
import { withSigningKey } from '../../keys/resolve-signer.js';
import { evmChainOf, fillFees, nodeFailure, signingRefusal } from './evm-chain.js';

/**
 * The gas limit when none is given: 21000 + 25000 per authorization (EIP-7702's
 * PER_EMPTY_ACCOUNT_COST) is all an undelegation spends — the call to the account runs no code,
 * its code being cleared first — with headroom for chains that price calldata or accounts higher.
 */
export const UNDELEGATION_GAS_LIMIT = 60_000n;

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
/** EIP-7702's delegation indicator: `0xef0100 ‖ address`, the whole code of a delegated account. */
const DELEGATION = /^0xef0100[0-9a-f]{40}$/i;

export const ethUndelegate7702: TActivityDefinition<TEthUndelegate7702Intent, TEthUndelegate7702Result> = {
  ...ETH_UNDELEGATE_7702_ACTIVITY,
  onFailure: 'reject',
  params: ZEthUndelegate7702IntentSchema,
  policyParams: exposeParams({ caip2: 'caip2', from: 'from' }),
  policyFacts: (db, org, p) => signerFacts(db, org, p.from),
  validate(p) {
    // Checked here, as given: fillFees would lower a tip above the cap to the cap.
    if (p.maxFeePerGas !== undefined && p.maxPriorityFeePerGas !== undefined && BigInt(p.maxPriorityFeePerGas) > BigInt(p.maxFeePerGas)) {
      throw new AppError('BAD_REQUEST', 'maxPriorityFeePerGas must not exceed maxFeePerGas', { field: 'maxPriorityFeePerGas' });
    }
  },
  async precheck(p, services) {
    evmChainOf(services, p.caip2);
  },
  async handle(ctx, p) {
    const rpc = evmChainOf(ctx.services, p.caip2);
    const from = p.from;
    await ctx.tx.sendTransactions.lockSender(p.caip2, from);

    let code: string;
    let nonce: bigint;
    let fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
    let balance: bigint;
    try {
      code = await rpc.call<string>('eth_getCode', [from, 'pending']);
      if (p.nonce !== undefined) {
        nonce = BigInt(p.nonce);
      } else {
        const pending = rpcQuantity(await rpc.call('eth_getTransactionCount', [from, 'pending']), 'nonce');
        const inFlight = (await ctx.tx.sendTransactions.nextNonceInFlight(p.caip2, from)) ?? 0n;
        nonce = pending > inFlight ? pending : inFlight;
      }
      fees = await fillFees(rpc, p);
      balance = rpcQuantity(await rpc.call('eth_getBalance', [from, 'pending']), 'balance');
    } catch (e) {
      nodeFailure(rpc, 'filling the undelegation', e);
    }
    if (!DELEGATION.test(code)) {
      const what = code === '0x' || code === '' ? 'has no EIP-7702 delegation' : 'holds contract code, not an EIP-7702 delegation';
      throw new AppError('BAD_REQUEST', `from: ${from} ${what} on ${p.caip2}; there is nothing to undelegate`, { field: 'from', caip2: p.caip2 });
    }
    const gasLimit = p.gasLimit !== undefined ? BigInt(p.gasLimit) : UNDELEGATION_GAS_LIMIT;
    const cost = gasLimit * fees.maxFeePerGas;
    if (balance < cost) {
      throw new AppError('BAD_REQUEST', `insufficient funds: ${from} holds ${balance} wei on ${p.caip2}; the undelegation (paid by the account itself) may cost up to ${cost} wei (gasLimit × maxFeePerGas)`, {
        field: 'from',
        balanceWei: balance.toString(),
        maxCostWei: cost.toString(),
      });
    }

    const signed = `0x${await withSigningKey(ctx, from, (key) => {
      if (key.curve !== 'CURVE_SECP256K1') throw new AppError('BAD_REQUEST', `from: ${from} is a ${key.curve} key; Ethereum transactions are signed with secp256k1`, { field: 'from' });
      if (ethereumAddress(key.publicKey).toLowerCase() !== from.toLowerCase()) throw new AppError('BAD_REQUEST', `from: ${from} is not the Ethereum address of the key it names`, { field: 'from' });
      return signingRefusal(() => {
        // The sender is the authority: its nonce is bumped before the authorization is checked
        // (EIP-7702), so the authorization carries the transaction's nonce + 1.
        const authorization = signEip7702Authorization(key.privateKey, { chainId: rpc.chainId, address: ZERO_ADDRESS, nonce: nonce + 1n });
        const unsigned = encodeEip7702Unsigned({ chainId: rpc.chainId, nonce, ...fees, gasLimit, to: from, value: 0n, data: '0x', authorizationList: [authorization] });
        return signEthereumTransaction(key.privateKey, unsigned);
      });
    })}`;
    const txHash = ethereumTransactionHash(signed);
    try {
      await rpc.call('eth_sendRawTransaction', [signed]);
    } catch (e) {
      // Unreachable: it may have arrived; recorded BROADCASTING, the watcher re-sends it.
      if (!(e instanceof EvmRpcError) || e.code !== undefined) nodeFailure(rpc, 'broadcasting the undelegation', e);
    }
    const id = newId();
    await ctx.tx.sendTransactions.insert(
      { id, organizationId: ctx.organizationId, activityId: ctx.activityId, caip2: p.caip2, fromAddress: from, signerAddress: from, nonce: nonce.toString(), sponsored: false, nativePriceUsd: null, txHash, signedTransaction: signed, status: 'BROADCASTING', error: null },
      ctx.now,
    );
    return { sendTransactionStatusId: id };
  },
};
