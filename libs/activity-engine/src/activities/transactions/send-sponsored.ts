/**
 * The sponsored branch of eth_send_transaction (`sponsor: true`): the organization's gas station
 * pays, not the sender. The sender's account signs two things with its own key — the EIP-712
 * `Execute` of the one call (with its `gasStationNonce` and `deadline`) and an EIP-7702
 * authorization delegating the account to the gas station — and Latchkey's relayer submits one
 * type-4 transaction to the account carrying both, paying its gas. The station (deployed on first
 * use through the CREATE2 deployer, the same address on every chain) runs the call only if the
 * account's signature is over exactly that call, nonce and deadline.
 *
 * Before anything is signed or broadcast, the send's worst-case cost (gasLimit × maxFeePerGas,
 * priced with LATCHKEY_GAS_PRICE_USD, micro-dollar bigints) must fit the organization's window
 * and, for a sub-organization, its parent's: otherwise 429 RESOURCE_EXHAUSTED naming the limit and
 * the usage. The check and the reservation of that worst case in the ledger are one step under
 * per-organization advisory locks, so concurrent sends cannot overshoot the window; the receipt
 * watcher replaces the reservation with the actual cost (gasUsed × effectiveGasPrice), or
 * releases it for a send that never ran.
 */
import {
  CREATE2_DEPLOYER,
  EvmRpcError,
  GAS_PRICE_USD_VARIABLE,
  GAS_STATION_NONCE_SLOT,
  encodeEip7702Unsigned,
  encodeEip1559Unsigned,
  encodeGasStationExecute,
  ethereumAddress,
  ethereumTransactionHash,
  gasStationAddress,
  gasStationDeployData,
  newId,
  rpcQuantity,
  signEip7702Authorization,
  signEthereumTransaction,
  signGasStationCall,
  toRpcQuantity,
  type TEvmRpc,
  type TRlpItem,
} from '@latchkey/crypto';
import { AppError, type TEthCallParams, type TEthSendTransactionIntent, type TEthSendTransactionResult } from '@latchkey/domain';
import { formatUsdMicros, type TSendError } from '@latchkey/persistence';
import type { TActivityContext } from '../../engine/activity-definition.js';
import { gasWindowsOf, weiToUsdMicros } from '../../engine/gas-window.js';
import { withGasRelayerKey } from '../../keys/gas-relayer.js';
import { withSigningKey } from '../../keys/resolve-signer.js';
import { fillFees, signingRefusal } from './evm-chain.js';

/** How long a signed sponsored call stays valid when the caller gives no deadline. */
const DEFAULT_DEADLINE_SECONDS = 600n;
/** How long the first sponsored send on a chain waits for the gas station's deployment. */
const DEPLOY_WAIT_MS = 30_000;

export interface TSendHelpers {
  nodeFailure(rpc: TEvmRpc, what: string, e: unknown): never;
  revertOf(e: unknown): TSendError | undefined;
}

const hex = (b: Uint8Array) => toRpcQuantity(b.length === 0 ? 0n : BigInt(`0x${Buffer.from(b).toString('hex')}`));

/** The relayer's next nonce: the node's pending count, past its sends still in flight. */
async function relayerNonce(ctx: TActivityContext, rpc: TEvmRpc, caip2: string, relayer: string): Promise<bigint> {
  const pending = rpcQuantity(await rpc.call('eth_getTransactionCount', [relayer, 'pending']), 'nonce');
  const inFlight = (await ctx.tx.sendTransactions.nextNonceInFlight(caip2, relayer)) ?? 0n;
  return pending > inFlight ? pending : inFlight;
}

/** Deploys the gas station through the CREATE2 deployer unless it is there, and waits for it. */
async function ensureGasStation(ctx: TActivityContext, rpc: TEvmRpc, caip2: string, relayer: { address: string; privateKey: Uint8Array }, p: TEthSendTransactionIntent): Promise<string> {
  const station = gasStationAddress();
  if ((await rpc.call<string>('eth_getCode', [station, 'latest'])) !== '0x') return station;
  const data = gasStationDeployData();
  const gasLimit = rpcQuantity(await rpc.call('eth_estimateGas', [{ from: relayer.address, to: CREATE2_DEPLOYER, data }]), 'gas estimate');
  const unsigned = encodeEip1559Unsigned({ chainId: rpc.chainId, nonce: await relayerNonce(ctx, rpc, caip2, relayer.address), ...(await fillFees(rpc, p)), gasLimit, to: CREATE2_DEPLOYER, value: 0n, data });
  const hash = await rpc.call<string>('eth_sendRawTransaction', [`0x${signEthereumTransaction(relayer.privateKey, unsigned)}`]);
  const until = Date.now() + DEPLOY_WAIT_MS;
  while (Date.now() < until) {
    const receipt = await rpc.call<{ status?: string } | null>('eth_getTransactionReceipt', [hash]);
    if (receipt) {
      if (receipt.status !== '0x1' || (await rpc.call<string>('eth_getCode', [station, 'latest'])) === '0x') throw new AppError('UNAVAILABLE', `deploying the gas station on ${caip2} failed (transaction ${hash})`, { caip2 });
      return station;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new AppError('UNAVAILABLE', `the gas station is being deployed on ${caip2} (transaction ${hash}); retry once it is mined`, { caip2 });
}

export async function sendSponsored(ctx: TActivityContext, p: TEthSendTransactionIntent, rpc: TEvmRpc, call: TEthCallParams, h: TSendHelpers): Promise<TEthSendTransactionResult> {
  const price = ctx.services.gasPricesUsd?.get(p.caip2);
  if (price === undefined) {
    throw new AppError('BAD_REQUEST', `sponsor: ${p.caip2} has no native-token price; the operator sets it in ${GAS_PRICE_USD_VARIABLE} (e.g. ${p.caip2}=3000)`, { field: 'sponsor', variable: GAS_PRICE_USD_VARIABLE });
  }
  const windows = await gasWindowsOf(ctx.tx, ctx.organizationId);
  if (windows.length === 0 || !windows[0]!.enabled) {
    throw new AppError('BAD_REQUEST', 'sponsor: gas sponsorship is not enabled for this organization; its billing organization enables it with upsert_gas_usage_config', { field: 'sponsor' });
  }
  const from = p.from;
  const value = BigInt(call.value ?? '0');
  const data = call.data ?? '0x';
  // The relayer is made outside the activity's transaction: a refused send must not forget it.
  return withGasRelayerKey(ctx.detached, ctx.vault, async (relayer) => {
    await ctx.tx.sendTransactions.lockSender(p.caip2, relayer.address);
    try {
      const station = await ensureGasStation(ctx, rpc, p.caip2, relayer, p);
      const gsNonce = p.gasStationNonce !== undefined ? BigInt(p.gasStationNonce) : rpcQuantity(await rpc.call('eth_getStorageAt', [from, GAS_STATION_NONCE_SLOT, 'latest']), 'gas station nonce');
      const deadline = p.deadline !== undefined ? BigInt(p.deadline) : BigInt(Math.floor(ctx.now.getTime() / 1000)) + DEFAULT_DEADLINE_SECONDS;
      const accountNonce = rpcQuantity(await rpc.call('eth_getTransactionCount', [from, 'pending']), 'nonce');
      // The account's two signatures: over the call (EIP-712) and the delegation (EIP-7702).
      const { signature, authorization } = await withSigningKey(ctx, from, (key) => {
        if (key.curve !== 'CURVE_SECP256K1') throw new AppError('BAD_REQUEST', `from: ${from} is a ${key.curve} key; Ethereum transactions are signed with secp256k1`, { field: 'from' });
        if (ethereumAddress(key.publicKey).toLowerCase() !== from.toLowerCase()) throw new AppError('BAD_REQUEST', `from: ${from} is not the Ethereum address of the key it names`, { field: 'from' });
        return signingRefusal(() => ({
          signature: signGasStationCall(key.privateKey, { chainId: rpc.chainId, account: from, to: call.to, value, data, nonce: gsNonce, deadline }),
          authorization: signEip7702Authorization(key.privateKey, { chainId: rpc.chainId, address: station, nonce: accountNonce }) as Uint8Array[],
        }));
      });
      const calldata = encodeGasStationExecute({ to: call.to, value, data, nonce: gsNonce, deadline, signature });
      const auth = { chainId: hex(authorization[0]!), address: station, nonce: hex(authorization[2]!), yParity: hex(authorization[3]!), r: hex(authorization[4]!), s: hex(authorization[5]!) };
      const nonce = p.nonce !== undefined ? BigInt(p.nonce) : await relayerNonce(ctx, rpc, p.caip2, relayer.address);
      const { maxFeePerGas, maxPriorityFeePerGas } = await fillFees(rpc, p);
      let gasLimit: bigint;
      try {
        gasLimit = p.gasLimit !== undefined ? BigInt(p.gasLimit) : rpcQuantity(await rpc.call('eth_estimateGas', [{ from: relayer.address, to: from, data: calldata, authorizationList: [auth] }]), 'gas estimate');
      } catch (e) {
        const reverted = h.revertOf(e);
        if (!reverted) throw e;
        const id = newId();
        await ctx.tx.sendTransactions.insert(
          { id, organizationId: ctx.organizationId, activityId: ctx.activityId, caip2: p.caip2, fromAddress: from, signerAddress: relayer.address, nonce: nonce.toString(), sponsored: true, nativePriceUsd: price, txHash: null, signedTransaction: null, status: 'FAILED', error: reverted },
          ctx.now,
        );
        return { sendTransactionStatusId: id };
      }
      // The window: the worst case must fit the organization's and its parent's, before anything is
      // sent. Check and reservation are one step: the windows are locked (billing organization
      // first) until this transaction ends, the usage read under the lock counts the open
      // reservations of sends in flight, and this send's worst case is reserved below, in this
      // same transaction, so two concurrent sends cannot both spend the same room.
      await ctx.tx.gas.lockWindows([...windows].reverse().map((w) => w.organizationId));
      const locked = await gasWindowsOf(ctx.tx, ctx.organizationId);
      const maxCostMicros = weiToUsdMicros(gasLimit * maxFeePerGas, price);
      for (const w of locked) {
        if (w.usageMicros + maxCostMicros > w.limitMicros) {
          throw new AppError(
            'RATE_LIMITED',
            `gas window exhausted: organization ${w.organizationId} has used ${formatUsdMicros(w.usageMicros)} USD of its ${formatUsdMicros(w.limitMicros)} USD limit over the last ${w.windowDurationMinutes} minutes, and this send may cost up to ${formatUsdMicros(maxCostMicros)} USD`,
            { limit: 'windowLimitUsd', organizationId: w.organizationId, windowLimitUsd: formatUsdMicros(w.limitMicros), usageUsd: formatUsdMicros(w.usageMicros), maxCostUsd: formatUsdMicros(maxCostMicros), windowDurationMinutes: w.windowDurationMinutes },
          );
        }
      }
      const relayerBalance = rpcQuantity(await rpc.call('eth_getBalance', [relayer.address, 'pending']), 'balance');
      if (relayerBalance < gasLimit * maxFeePerGas) {
        throw new AppError('UNAVAILABLE', `the gas relayer ${relayer.address} holds ${relayerBalance} wei on ${p.caip2}, less than this send may cost; the operator funds it (npm run latchkey -- gas relayer --chain ${p.caip2})`, { caip2: p.caip2, relayer: relayer.address });
      }
      const unsigned = signingRefusal(() =>
        encodeEip7702Unsigned({ chainId: rpc.chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gasLimit, to: from, value: 0n, data: calldata, authorizationList: [authorization as TRlpItem] }),
      );
      const signed = `0x${signingRefusal(() => signEthereumTransaction(relayer.privateKey, unsigned))}`;
      const txHash = ethereumTransactionHash(signed);
      try {
        await rpc.call('eth_sendRawTransaction', [signed]);
      } catch (e) {
        // Unreachable: it may have arrived; recorded BROADCASTING, the watcher re-sends it.
        if (!(e instanceof EvmRpcError) || e.code !== undefined) h.nodeFailure(rpc, 'broadcasting the sponsored transaction', e);
      }
      const id = newId();
      await ctx.tx.sendTransactions.insert(
        { id, organizationId: ctx.organizationId, activityId: ctx.activityId, caip2: p.caip2, fromAddress: from, signerAddress: relayer.address, nonce: nonce.toString(), sponsored: true, nativePriceUsd: price, txHash, signedTransaction: signed, status: 'BROADCASTING', error: null },
        ctx.now,
      );
      // The reservation (worst case) the receipt watcher turns into the actual cost, or releases.
      await ctx.tx.gas.reserve(id, ctx.activityId, locked.map((w) => w.organizationId), maxCostMicros);
      return { sendTransactionStatusId: id };
    } catch (e) {
      if (e instanceof AppError) throw e;
      h.nodeFailure(rpc, 'preparing the sponsored transaction', e);
    }
  });
}
