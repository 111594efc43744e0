/**
 * get_send_transaction_status: a send of eth_send_transaction as `v1GetSendTransactionStatusResponse`
 * — `txStatus` (BROADCASTING, INCLUDED, FAILED), `eth.txHash` once signed, and for a failure
 * `txError` and `error {message, revertChain}` (what sdk-server's pollTransactionStatus reads).
 */
import { AppError, ZGetSendTransactionStatusRequestSchema, type TGetSendTransactionStatusRequest, type TGetSendTransactionStatusResponse } from '@latchkey/domain';
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
