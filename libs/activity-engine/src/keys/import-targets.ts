/**
 * Encrypted import. init_import_wallet / init_import_private_key hand the caller a one-time P-256
 * target (its private half sealed by the vault) inside an envelope signed by the server's signer
 * key, bound to the organization and the importing user; the client encrypts the mnemonic or key
 * to it (`@turnkey/crypto` encryptWalletToBundle / encryptPrivateKeyToBundle), and import_wallet /
 * import_private_key open it with that user's unused target. A bundle made for another user or
 * organization cannot be opened, so it is refused. Imports must target the caller's own user.
 */
import { BundleError, createImportBundle, generateP256KeyPair, newId, openImportedBundle, publicKeyForCurve } from '@latchkey/crypto';
import { AppError, type TImportPrivateKeyIntent, type TInitImportIntent, type TInitImportResult } from '@latchkey/domain';
import type { TImportKind } from '@latchkey/persistence';
import type { TActivityContext } from '../engine/activity-definition.js';
import { withBundleSigner } from './bundle-signer.js';
import { importTargetAad as targetAad } from './vault-aad.js';

/** How long an import target stays usable. */
export const IMPORT_TARGET_TTL_MS = 60 * 60 * 1000;

export async function assertOwnUser(ctx: TActivityContext, userId: string): Promise<void> {
  if (!(await ctx.tx.users.findById(ctx.organizationId, userId))) throw new AppError('NOT_FOUND', `user not found: ${userId}`, { userId });
  if (userId !== ctx.principal.userId) throw new AppError('REQUEST_NOT_AUTHORIZED', 'request not authorized: imports must target the caller’s own user', { userId });
}

export function initImport(kind: TImportKind) {
  return async (ctx: TActivityContext, p: TInitImportIntent): Promise<TInitImportResult> => {
    await assertOwnUser(ctx, p.userId);
    const id = newId();
    const target = generateP256KeyPair();
    const secret = Buffer.from(target.privateKey, 'hex');
    try {
      await ctx.tx.importTargets.create({
        id,
        organizationId: ctx.organizationId,
        userId: p.userId,
        kind,
        publicKey: target.publicKeyUncompressed,
        sealedPrivateKey: ctx.vault.seal(secret, targetAad(id)),
        expiresAt: new Date(ctx.now.getTime() + IMPORT_TARGET_TTL_MS),
      });
    } finally {
      secret.fill(0);
    }
    const importBundle = await withBundleSigner(ctx, (signer) =>
      createImportBundle({ organizationId: ctx.organizationId, userId: p.userId, targetPublicKeyUncompressedHex: target.publicKeyUncompressed, signer }),
    );
    return { importBundle };
  };
}

/** Opens an encrypted bundle with one of the user's unused targets and consumes that target. */
export async function openWithTarget(ctx: TActivityContext, kind: TImportKind, userId: string, encryptedBundle: string): Promise<Uint8Array> {
  for (const t of await ctx.tx.importTargets.usable(ctx.organizationId, userId, kind, ctx.now)) {
    const targetKey = ctx.vault.open(t.sealedPrivateKey, targetAad(t.id));
    let plaintext: Uint8Array;
    try {
      plaintext = await openImportedBundle(encryptedBundle, targetKey);
    } catch (e) {
      if (e instanceof BundleError) continue;
      throw e;
    } finally {
      targetKey.fill(0);
    }
    if (!(await ctx.tx.importTargets.use(ctx.organizationId, t.id, ctx.now))) throw new AppError('CONFLICT', 'this import target was just used by another import');
    return plaintext;
  }
  const init = kind === 'WALLET' ? 'init_import_wallet' : 'init_import_private_key';
  throw new AppError('BAD_REQUEST', `the encrypted bundle does not open with any unused import target of user ${userId}; call ${init} and encrypt to its importBundle`, {
    field: 'encryptedBundle',
  });
}

/** The 32-byte private key of an import plaintext: raw bytes, or ed25519's `private ‖ public`. */
export function importedPrivateKey(curve: TImportPrivateKeyIntent['curve'], plaintext: Uint8Array): Uint8Array {
  if (plaintext.length === 32) return plaintext.slice();
  if (curve === 'CURVE_ED25519' && plaintext.length === 64) {
    const priv = plaintext.slice(0, 32);
    if (!Buffer.from(publicKeyForCurve(curve, priv)).equals(Buffer.from(plaintext.subarray(32)))) {
      priv.fill(0);
      throw new AppError('BAD_REQUEST', 'the imported ed25519 key pair is inconsistent (its public half does not match)', { field: 'encryptedBundle' });
    }
    return priv;
  }
  throw new AppError('BAD_REQUEST', `the imported bundle holds ${plaintext.length} bytes; a ${curve} private key is 32`, { field: 'encryptedBundle' });
}
