/**
 * The current signing key, opened once and re-checked every few seconds: a rotation (`webhooks
 * rotate-key`, another process) takes effect within `ttlMs` without a restart. Until then the
 * old key still signs, and it stays published for its grace period, so nothing fails to verify.
 */
import type { TKeyVault, TWebhookSigner } from '@latchkey/crypto';
import { ensureWebhookSigningKey, openWebhookSigner, type TWebhookSigningKeyRepository } from '@latchkey/persistence';

export function createSignerCache(repo: TWebhookSigningKeyRepository, vault: TKeyVault, ttlMs = 5_000): () => Promise<TWebhookSigner> {
  let cached: { signer: TWebhookSigner; checkedAt: number } | undefined;
  let pending: Promise<TWebhookSigner> | undefined;
  const refresh = async (): Promise<TWebhookSigner> => {
    const row = await repo.current();
    const signer = row === null ? await ensureWebhookSigningKey(repo, vault) : row.keyId === cached?.signer.keyId ? cached.signer : openWebhookSigner(row, vault);
    cached = { signer, checkedAt: Date.now() };
    return signer;
  };
  return async () => {
    if (cached && Date.now() - cached.checkedAt < ttlMs) return cached.signer;
    pending ??= refresh().finally(() => (pending = undefined));
    return pending;
  };
}
