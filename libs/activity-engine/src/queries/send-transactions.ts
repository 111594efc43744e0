/**
 * The send queries. get_send_transaction_status: a send of eth_send_transaction (or
 * eth_undelegate_7702) as `v1GetSendTransactionStatusResponse` — `txStatus` (BROADCASTING,
 * INCLUDED, FAILED), `eth.txHash` once signed, and for a failure `txError` and `error {message,
 * revertChain}` (what sdk-server's pollTransactionStatus reads). get_nonces: an address's two
 * nonces on a configured chain, read from its node.
 */
import { GAS_STATION_NONCE_SLOT, rpcQuantity } from '@latchkey/crypto';
import {
  AppError,
  ZGetNoncesRequestSchema,
  ZGetSendTransactionStatusRequestSchema,
  type TGetNoncesRequest,
  type TGetNoncesResponse,
  type TGetSendTransactionStatusRequest,
  type TGetSendTransactionStatusResponse,
} from '@latchkey/domain';
import { evmChainOf, nodeFailure } from '../activities/transactions/evm-chain.js';
import type { TQueryDefinition } from './query-definition.js';

export const getSendTransactionStatus: TQueryDefinition<TGetSendTransactionStatusRequest, TGetSendTransactionStatusResponse> = {
  path: 'get_send_transaction_status',
  request: ZGetSendTransactionStatusRequestSchema,
  async handle(ctx, req) {
    const row = await ctx.store.sendTransactions.find(ctx.organization.id, req.sendTransactionStatusId);
    if (!row) throw new AppError('NOT_FOUND', `no send transaction status ${req.sendTransactionStatusId} in organization ${ctx.organization.id}`, { field: 'sendTransactionStatusId' });
    return {
      txStatus: row.status,
      ...(row.txHash ? { eth: { txHash: row.txHash } } : {}),
      ...(row.error ? { txError: row.error.message, error: { message: row.error.message, ...(row.error.revertChain ? { revertChain: row.error.revertChain } : {}) } } : {}),
    };
  },
};

/**
 * get_nonces (`v1GetNoncesRequest`): `nonce` is the one eth_send_transaction would fill — the
 * node's pending transaction count, or past this address's sends Latchkey has in flight;
 * `gasStationNonce` is the next nonce the gas station accepts from the account (its
 * GAS_STATION_NONCE_SLOT, the account's own storage; 0 before its first sponsored send, and kept
 * through an undelegation). Only what was asked for is answered; asking for neither is a 400.
 * The chain is public: any address may be asked about, as its node would answer anyone.
 * @throws AppError BAD_REQUEST for an unconfigured chain or nothing asked; UNAVAILABLE when the node cannot be reached
 */
export const getNonces: TQueryDefinition<TGetNoncesRequest, TGetNoncesResponse> = {
  path: 'get_nonces',
  request: ZGetNoncesRequestSchema,
  async handle(ctx, req) {
    if (req.nonce !== true && req.gasStationNonce !== true) {
      throw new AppError('BAD_REQUEST', 'nonce: ask for at least one nonce (nonce: true and/or gasStationNonce: true)', { field: 'nonce' });
    }
    const rpc = evmChainOf(ctx.services, req.caip2);
    const out: TGetNoncesResponse = {};
    try {
      if (req.nonce === true) {
        const pending = rpcQuantity(await rpc.call('eth_getTransactionCount', [req.address, 'pending']), 'nonce');
        const inFlight = (await ctx.store.sendTransactions.nextNonceInFlight(req.caip2, req.address)) ?? 0n;
        out.nonce = (pending > inFlight ? pending : inFlight).toString();
      }
      if (req.gasStationNonce === true) {
        out.gasStationNonce = rpcQuantity(await rpc.call('eth_getStorageAt', [req.address, GAS_STATION_NONCE_SLOT, 'latest']), 'gas station nonce').toString();
      }
    } catch (e) {
      nodeFailure(rpc, 'reading the nonces', e);
    }
    return out;
  },
};
