/**
 * The receipt watcher: follows eth_send_transaction's sends from BROADCASTING to INCLUDED (mined,
 * status 1) or FAILED (mined and reverted, with the revert's reason; or dropped because its nonce
 * was used by another transaction). Each change is written with its
 * SEND_TRANSACTION_STATUS_UPDATES outbox event in one transaction (recordSendOutcome), so the
 * webhook loop delivers it like any event; a sponsored send's gas, priced, goes into the gas
 * ledger in that same transaction. A send the node does not know (dropped from its pool,
 * or never received because the broadcast's connection failed) is sent again: the same signed
 * bytes, so at most one of them can ever be mined.
 *
 * Stateless between ticks: everything is in the database, so a restarted or second worker picks
 * the same rows up; two workers recording the same outcome record it once.
 */
import { EvmRpcError, decodeRevertReason, rpcQuantity, toRpcQuantity, type TEvmRpc } from '@latchkey/crypto';
import { pendingSends, recordSendOutcome, type TDatabase, type TSendError, type TSendOutcome, type TSendRow } from '@latchkey/persistence';
import type { Logger } from 'pino';

export interface TReceiptWatcherOptions {
  db: TDatabase;
  chains: ReadonlyMap<string, TEvmRpc>;
  logger: Logger;
  /** How often the watcher looks for unfinished sends. */
  intervalMs: number;
  /** Sends checked per tick. Default 100. */
  batch?: number;
}

interface TReceipt {
  status?: string;
  blockNumber?: string;
  gasUsed?: string;
  effectiveGasPrice?: string;
}

interface TTransactionView {
  from?: string;
  to?: string | null;
  input?: string;
  value?: string;
  gas?: string;
}

/** Why a mined transaction reverted: its call replayed on the state before its block. */
async function revertReason(rpc: TEvmRpc, txHash: string, blockNumber: bigint): Promise<TSendError> {
  const tx = await rpc.call<TTransactionView | null>('eth_getTransactionByHash', [txHash]);
  if (!tx) return { message: 'execution reverted' };
  try {
    await rpc.call('eth_call', [{ from: tx.from, to: tx.to, data: tx.input, value: tx.value, gas: tx.gas }, toRpcQuantity(blockNumber > 0n ? blockNumber - 1n : 0n)]);
    // The replay succeeds: the revert depended on a transaction mined before it in the same block.
    return { message: 'execution reverted (the reason could not be replayed)' };
  } catch (e) {
    if (!(e instanceof EvmRpcError) || e.code === undefined) throw e;
    const reason = decodeRevertReason(e.data);
    return {
      message: reason ? `execution reverted: ${reason.message}` : e.message,
      revertChain: [{ ...(tx.to ? { address: tx.to } : {}), ...(reason ? { errorType: reason.kind, displayMessage: reason.message } : { errorType: 'unknown' as const, displayMessage: e.message }) }],
    };
  }
}

/** What one send's chain says now. */
export async function checkSend(rpc: TEvmRpc, row: TSendRow): Promise<TSendOutcome> {
  if (!row.txHash || !row.signedTransaction) return { status: 'BROADCASTING' };
  const receipt = await rpc.call<TReceipt | null>('eth_getTransactionReceipt', [row.txHash]);
  if (receipt) {
    const blockNumber = rpcQuantity(receipt.blockNumber, 'block number');
    const numbers = {
      blockNumber: blockNumber.toString(),
      gasUsed: rpcQuantity(receipt.gasUsed, 'gas used').toString(),
      effectiveGasPrice: receipt.effectiveGasPrice ? rpcQuantity(receipt.effectiveGasPrice, 'effective gas price').toString() : null,
    };
    if (receipt.status === '0x1') return { status: 'INCLUDED', ...numbers, error: null };
    return { status: 'FAILED', ...numbers, error: await revertReason(rpc, row.txHash, blockNumber) };
  }
  const known = await rpc.call<unknown>('eth_getTransactionByHash', [row.txHash]);
  if (known) return { status: 'BROADCASTING' };
  try {
    await rpc.call('eth_sendRawTransaction', [row.signedTransaction]);
  } catch (e) {
    if (!(e instanceof EvmRpcError) || e.code === undefined) throw e;
    // Its nonce was taken by another transaction: this one can never be mined.
    const used = rpcQuantity(await rpc.call('eth_getTransactionCount', [row.signerAddress, 'latest']), 'nonce') > BigInt(row.nonce);
    if (used) return { status: 'FAILED', blockNumber: null, gasUsed: null, effectiveGasPrice: null, error: { message: `dropped: nonce ${row.nonce} of ${row.signerAddress} was used by another transaction (${e.message})` } };
  }
  return { status: 'BROADCASTING' };
}

export function createReceiptWatcher(o: TReceiptWatcherOptions): { start(): void; stop(): Promise<void>; tick(): Promise<number> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const caip2s = [...o.chains.keys()];

  /** @returns how many sends changed status */
  async function tick(): Promise<number> {
    let changed = 0;
    const rows = await pendingSends(o.db, caip2s, o.batch ?? 100, o.intervalMs);
    for (const row of rows) {
      const rpc = o.chains.get(row.caip2);
      if (!rpc) continue;
      try {
        const outcome = await checkSend(rpc, row);
        if (await recordSendOutcome(o.db, row, outcome)) {
          changed++;
          o.logger.info({ sendTransactionStatusId: row.id, caip2: row.caip2, txHash: row.txHash, status: outcome.status }, 'send transaction status changed');
        }
      } catch (err) {
        // A node that is down is retried next tick; the row stays BROADCASTING.
        o.logger.warn({ err, sendTransactionStatusId: row.id, caip2: row.caip2 }, 'checking a sent transaction failed; retrying');
      }
    }
    return changed;
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((err: unknown) => o.logger.warn({ err }, 'receipt watcher tick failed; retrying'))
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, o.intervalMs);
  };

  return {
    tick,
    start() {
      if (caip2s.length === 0) return;
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
