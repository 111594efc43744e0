/**
 * The installation's webhook signing keys. Private keys arrive sealed by the key vault (the
 * barrier): this repository never sees key material in clear. The signing key is the newest one
 * not retired; the JWKS publishes it and the retired keys still within their grace period.
 */
import type { TDatabase, TSql } from '../database.js';

export interface TWebhookSigningKeyRow {
  keyId: string;
  /** Raw 32-byte Ed25519 public key, lowercase hex. */
  publicKeyHex: string;
  /** `vault.seal(seed, webhookSigningKeyAad(keyId))`. */
  sealedPrivateKey: string;
  createdAt: Date;
  retiredAt: Date | null;
  publishUntil: Date | null;
}

const COLUMNS = `id AS "keyId", public_key AS "publicKeyHex", sealed_private_key AS "sealedPrivateKey", created_at AS "createdAt",
  retired_at AS "retiredAt", publish_until AS "publishUntil"`;

// Arbitrary constant: serialises key creation and rotation across processes.
const SIGNING_KEY_LOCK_KEY = 7_245_013;

export function webhookSigningKeyRepository(db: TDatabase) {
  const current = async (q: TSql = db.sql): Promise<TWebhookSigningKeyRow | null> =>
    (await q.query<TWebhookSigningKeyRow>(`SELECT ${COLUMNS} FROM webhook_signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 1`)).rows[0] ?? null;

  return {
    /** The key that signs now, or null before the first one is made. */
    current: () => current(),

    /** The keys the JWKS shows: the current one and those retired less than their grace period ago; newest first. */
    async published(): Promise<TWebhookSigningKeyRow[]> {
      return (await db.sql.query<TWebhookSigningKeyRow>(`SELECT ${COLUMNS} FROM webhook_signing_keys WHERE retired_at IS NULL OR publish_until > now() ORDER BY created_at DESC, id DESC`)).rows;
    },

    /**
     * Runs `work` holding the key lock, with the current key as the lock holder sees it: `add`
     * inserts a key and retires every other unretired key, published `graceMs` more.
     */
    async locked<T>(work: (s: { current: TWebhookSigningKeyRow | null; add(k: { keyId: string; publicKeyHex: string; sealedPrivateKey: string }, graceMs: number): Promise<string[]> }) => Promise<T>): Promise<T> {
      return db.sqlTransaction(async (tx) => {
        // A key must never sign before it is durably stored (and so published).
        await tx.query('SET LOCAL synchronous_commit = on');
        await tx.query('SELECT pg_advisory_xact_lock($1)', [SIGNING_KEY_LOCK_KEY]);
        return work({
          current: await current(tx),
          async add(k, graceMs) {
            const retired = await tx.query<{ id: string }>(
              `UPDATE webhook_signing_keys SET retired_at = now(), publish_until = now() + $1 * interval '1 millisecond' WHERE retired_at IS NULL RETURNING id`,
              [Math.max(0, Math.round(graceMs))],
            );
            await tx.query(`INSERT INTO webhook_signing_keys (id, public_key, sealed_private_key) VALUES ($1, $2, $3)`, [k.keyId, k.publicKeyHex, k.sealedPrivateKey]);
            return retired.rows.map((r) => r.id);
          },
        });
      });
    },
  };
}

export type TWebhookSigningKeyRepository = ReturnType<typeof webhookSigningKeyRepository>;
