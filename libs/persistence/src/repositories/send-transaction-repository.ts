/**
 * eth_send_transaction's sends (migration 0020): one row per broadcast transaction, its status
 * and, once mined, its receipt's gas. The activity writes the row (BROADCASTING) and its first
 * SEND_TRANSACTION_STATUS_UPDATES event in its own transaction (`sendTransactionRepository`);
 * the webhook worker's receipt watcher advances it (`pendingSends`, `recordSendOutcome`), the
 * new status and its event in one plain-SQL transaction, so no status change lacks its event.
 * Plain SQL throughout: numbers beyond 2^53 (wei, nonces) travel as decimal strings.
 */
import type { TDatabase, TDb, TSql } from '../database.js';

export type TSendStatus = 'BROADCASTING' | 'INCLUDED' | 'FAILED';

/** What a failure records: the message and, for a revert, what the revert data says. */
export interface TSendError {
  message: string;
  revertChain?: { address?: string; errorType: 'native' | 'custom' | 'unknown'; displayMessage: string }[];
}

export interface TSendRow {
  id: string;
  organizationId: string;
  activityId: string;
  caip2: string;
  fromAddress: string;
  /** Who signs and pays the transaction on chain: `fromAddress`, or the relayer when sponsored. */
  signerAddress: string;
  /** The signer's nonce, decimal string. */
  nonce: string;
  sponsored: boolean;
  /** LATCHKEY_GAS_PRICE_USD of the native token when the sponsored send was made (decimal string). */
  nativePriceUsd: string | null;
  txHash: string | null;
  signedTransaction: string | null;
  status: TSendStatus;
  error: TSendError | null;
  blockNumber: string | null;
  gasUsed: string | null;
  effectiveGasPrice: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = `id, organization_id AS "organizationId", activity_id AS "activityId", caip2, from_address AS "fromAddress",
  signer_address AS "signerAddress", nonce::text AS nonce, sponsored, native_price_usd::text AS "nativePriceUsd", tx_hash AS "txHash", signed_transaction AS "signedTransaction", status, error,
  block_number::text AS "blockNumber", gas_used::text AS "gasUsed", effective_gas_price::text AS "effectiveGasPrice",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/** The body of a SEND_TRANSACTION_STATUS_UPDATES event: the status as get_send_transaction_status answers it, with its ids. */
export function sendStatusEvent(row: Pick<TSendRow, 'id' | 'organizationId' | 'activityId' | 'caip2' | 'fromAddress' | 'status' | 'txHash' | 'error'>): Record<string, unknown> {
  return {
    sendTransactionStatusId: row.id,
    organizationId: row.organizationId,
    activityId: row.activityId,
    caip2: row.caip2,
    from: row.fromAddress,
    txStatus: row.status,
    ...(row.txHash ? { eth: { txHash: row.txHash } } : {}),
    ...(row.error ? { txError: row.error.message, error: row.error } : {}),
  };
}

export const SEND_STATUS_EVENT_TYPE = 'SEND_TRANSACTION_STATUS_UPDATES';

export function sendTransactionRepository(db: TDb) {
  return {
    /** Records a send and its first status event (inside the activity's transaction). */
    async insert(row: Omit<TSendRow, 'blockNumber' | 'gasUsed' | 'effectiveGasPrice' | 'createdAt' | 'updatedAt'>, at: Date): Promise<void> {
      await db.$executeRawUnsafe(
        `INSERT INTO send_transaction_statuses (id, organization_id, activity_id, caip2, from_address, nonce, tx_hash, signed_transaction, status, error, created_at, updated_at, signer_address, sponsored, native_price_usd)
         VALUES ($1, $2, $3, $4, $5, $6::numeric, $7, $8, $9, $10::jsonb, $11, $11, $12, $13, $14::numeric)`,
        row.id,
        row.organizationId,
        row.activityId,
        row.caip2,
        row.fromAddress,
        row.nonce,
        row.txHash,
        row.signedTransaction,
        row.status,
        row.error === null ? null : JSON.stringify(row.error),
        at,
        row.signerAddress,
        row.sponsored,
        row.nativePriceUsd,
      );
      await db.$executeRawUnsafe(
        `INSERT INTO outbox_events (organization_id, event_type, payload) VALUES ($1, $2, $3::jsonb)`,
        row.organizationId,
        SEND_STATUS_EVENT_TYPE,
        JSON.stringify(sendStatusEvent(row)),
      );
    },
    /**
     * Serialises sends from one address on one chain until the calling transaction ends, so the
     * second of two concurrent sends sees the first's nonce in flight (`nextNonceInFlight`).
     */
    async lockSender(caip2: string, fromAddress: string): Promise<void> {
      await db.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))::text`, `send:${caip2}:${fromAddress.toLowerCase()}`);
    },
    async find(organizationId: string, id: string): Promise<TSendRow | null> {
      const rows = await db.$queryRawUnsafe<TSendRow[]>(`SELECT ${COLUMNS} FROM send_transaction_statuses WHERE organization_id = $1 AND id = $2`, organizationId, id);
      return rows[0] ?? null;
    },
    /**
     * The next nonce after this signer's sends still in flight on the chain, or null: a node's
     * pending count may not yet include a transaction another activity just broadcast.
     */
    async nextNonceInFlight(caip2: string, signerAddress: string): Promise<bigint | null> {
      const rows = await db.$queryRawUnsafe<{ n: string | null }[]>(
        `SELECT (max(nonce) + 1)::text AS n FROM send_transaction_statuses WHERE caip2 = $1 AND lower(signer_address) = lower($2) AND status = 'BROADCASTING' AND tx_hash IS NOT NULL`,
        caip2,
        signerAddress,
      );
      const n = rows[0]?.n;
      return n == null ? null : BigInt(n);
    },
  };
}
export type TSendTransactionRepository = ReturnType<typeof sendTransactionRepository>;

/**
 * Sends still BROADCASTING on the given chains, least recently checked first, not checked within
 * `recheckMs` (so a chain that is slow to mine is not polled in a tight loop).
 */
export async function pendingSends(db: TDatabase, caip2s: readonly string[], limit: number, recheckMs: number): Promise<TSendRow[]> {
  return (
    await db.sql.query<TSendRow>(
      `SELECT ${COLUMNS} FROM send_transaction_statuses
       WHERE status = 'BROADCASTING' AND caip2 = ANY($1::text[]) AND (checked_at IS NULL OR checked_at <= now() - make_interval(secs => $2::double precision / 1000))
       ORDER BY checked_at NULLS FIRST, created_at LIMIT $3`,
      [[...caip2s], recheckMs, limit],
    )
  ).rows;
}

export type TSendOutcome =
  | { status: 'BROADCASTING' }
  | { status: 'INCLUDED' | 'FAILED'; blockNumber: string | null; gasUsed: string | null; effectiveGasPrice: string | null; error: TSendError | null };

/**
 * Records what the watcher found. Still BROADCASTING: only the check time. Final: the status, the
 * receipt's numbers and the status event, in one transaction, and only if the row was still
 * BROADCASTING (two workers watching the same send record it once).
 * @returns whether the status changed
 */
export async function recordSendOutcome(db: TDatabase, row: TSendRow, outcome: TSendOutcome, extra?: (tx: TSql) => Promise<void>): Promise<boolean> {
  if (outcome.status === 'BROADCASTING') {
    await db.sql.query(`UPDATE send_transaction_statuses SET checked_at = now() WHERE id = $1`, [row.id]);
    return false;
  }
  return db.sqlTransaction(async (tx) => {
    const updated = await tx.query<{ id: string }>(
      `UPDATE send_transaction_statuses
       SET status = $2, block_number = $3::numeric, gas_used = $4::numeric, effective_gas_price = $5::numeric, error = $6::jsonb, checked_at = now(), updated_at = now()
       WHERE id = $1 AND status = 'BROADCASTING' RETURNING id`,
      [row.id, outcome.status, outcome.blockNumber, outcome.gasUsed, outcome.effectiveGasPrice, outcome.error === null ? null : JSON.stringify(outcome.error)],
    );
    if (updated.rows.length === 0) return false;
    const next = { ...row, status: outcome.status, error: outcome.error };
    await tx.query(`INSERT INTO outbox_events (organization_id, event_type, payload) VALUES ($1, $2, $3::jsonb)`, [row.organizationId, SEND_STATUS_EVENT_TYPE, JSON.stringify(sendStatusEvent(next))]);
    // A sponsored send's gas, priced, against its organization and that organization's parent:
    // ceil to the micro-dollar, exact numeric arithmetic. A reverted send used gas too. The entries
    // were the send's reservation (its worst case, written with the send): the actual cost replaces
    // it, keeping the reservation's time; a send that used no gas (dropped) releases it.
    await tx.query(
      `DELETE FROM gas_ledger_entries e USING send_transaction_statuses s
       WHERE s.id = $1 AND e.id >= s.id || ':' AND e.id < s.id || ';'
         AND NOT (s.sponsored AND s.gas_used IS NOT NULL AND s.effective_gas_price IS NOT NULL AND s.native_price_usd IS NOT NULL)`,
      [row.id],
    );
    await tx.query(
      `INSERT INTO gas_ledger_entries (id, organization_id, activity_id, usage_usd)
       SELECT s.id || ':' || o.org, o.org, s.activity_id, ceil(s.gas_used * s.effective_gas_price * s.native_price_usd / 1000000000000) / 1000000
       FROM send_transaction_statuses s
       CROSS JOIN LATERAL (
         SELECT s.organization_id AS org
         UNION SELECT parent_organization_id FROM organizations WHERE id = s.organization_id AND parent_organization_id IS NOT NULL
       ) o
       WHERE s.id = $1 AND s.sponsored AND s.gas_used IS NOT NULL AND s.effective_gas_price IS NOT NULL AND s.native_price_usd IS NOT NULL
       ON CONFLICT (id) DO UPDATE SET usage_usd = EXCLUDED.usage_usd`,
      [row.id],
    );
    await extra?.(tx);
    return true;
  });
}
