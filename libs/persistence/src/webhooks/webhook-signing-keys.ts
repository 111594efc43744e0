/**
 * The webhook signing key's life: made at first start, opened from the vault to sign, rotated on
 * demand (the CLI's `webhooks rotate-key`), and published as JWKS. The seed is sealed the moment
 * it is made and opened only in the worker's memory.
 */
import { buildWebhookJwks, createWebhookSigner, generateWebhookSigningKey, type TInstallEntropy, type TKeyVault, type TWebhookJwk, type TWebhookSigner } from '@latchkey/crypto';
import type { TWebhookSigningKeyRepository, TWebhookSigningKeyRow } from '../repositories/webhook-signing-key-repository.js';

/** Default grace period a rotated-out key stays in the JWKS: receivers cache it for a day (§B4). */
export const DEFAULT_WEBHOOK_KEY_GRACE_MS = 7 * 24 * 60 * 60 * 1000;

/** The vault binding of a sealed signing key: a sealed seed copied onto another key id fails to open. */
export function webhookSigningKeyAad(keyId: string): string {
  return `webhook-signing-key:${keyId}`;
}

/** The date in a fixed-seed installation's first key id (its keys are the same on every run). */
const FIXED_SEED_KEY_DATE = new Date(Date.UTC(2026, 0, 1));

function sealNew(vault: TKeyVault, entropy?: TInstallEntropy) {
  const k = entropy?.fixed ? generateWebhookSigningKey(FIXED_SEED_KEY_DATE, entropy) : generateWebhookSigningKey();
  return { key: { keyId: k.keyId, publicKeyHex: k.signer.publicKeyHex, sealedPrivateKey: vault.seal(k.seed, webhookSigningKeyAad(k.keyId)) }, signer: k.signer };
}

/**
 * Opens a stored key with the vault.
 * @throws VaultError when the master key is not the one that sealed it, or the row was altered.
 */
export function openWebhookSigner(row: TWebhookSigningKeyRow, vault: TKeyVault): TWebhookSigner {
  const signer = createWebhookSigner(row.keyId, vault.open(row.sealedPrivateKey, webhookSigningKeyAad(row.keyId)));
  // The stored public key is what the JWKS publishes: a mismatch would make every delivery unverifiable.
  if (signer.publicKeyHex !== row.publicKeyHex) throw new Error(`webhook signing key ${row.keyId}: the sealed private key does not match the stored public key`);
  return signer;
}

/**
 * The signer of the current key, made (and sealed) if there is none yet. Safe when several
 * processes start at once: one makes it, the others open it. `entropy` only for a fixed-seed test
 * installation (the first key is then the same on every run; rotations stay random).
 * @throws as `openWebhookSigner`.
 */
export async function ensureWebhookSigningKey(repo: TWebhookSigningKeyRepository, vault: TKeyVault, entropy?: TInstallEntropy): Promise<TWebhookSigner> {
  const existing = await repo.current();
  if (existing) return openWebhookSigner(existing, vault);
  return repo.locked(async (s) => {
    if (s.current) return openWebhookSigner(s.current, vault);
    const made = sealNew(vault, entropy);
    await s.add(made.key, 0);
    return made.signer;
  });
}

/**
 * Adds a new signing key; deliveries are signed with it from then on (workers pick it up within
 * their key cache's lifetime). The previous keys stay published for `graceMs`.
 * @throws RangeError if `graceMs` is negative or not finite.
 */
export async function rotateWebhookSigningKey(repo: TWebhookSigningKeyRepository, vault: TKeyVault, graceMs = DEFAULT_WEBHOOK_KEY_GRACE_MS): Promise<{ keyId: string; retired: string[] }> {
  if (!Number.isFinite(graceMs) || graceMs < 0) throw new RangeError(`graceMs must be a non-negative number of milliseconds, got ${graceMs}`);
  return repo.locked(async (s) => {
    const made = sealNew(vault);
    const retired = await s.add(made.key, graceMs);
    return { keyId: made.key.keyId, retired };
  });
}

/** The body and headers of `GET /public/v1/discovery/webhooks/jwks`. */
export async function webhookJwksDocument(repo: TWebhookSigningKeyRepository): Promise<{ body: { keys: TWebhookJwk[] }; headers: Record<string, string> }> {
  return buildWebhookJwks(await repo.published());
}
