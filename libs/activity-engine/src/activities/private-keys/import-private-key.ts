/**
 * Encrypted import. init_import_wallet / init_import_private_key hand the caller a one-time P-256
 * target (its private half sealed by the vault) inside an envelope signed by the server's signer
 * key, bound to the organization and the importing user; the client encrypts the mnemonic or key
 * to it (`@turnkey/crypto` encryptWalletToBundle / encryptPrivateKeyToBundle), and import_wallet /
 * import_private_key open it with that user's unused target. A bundle made for another user or
 * organization cannot be opened, so it is refused. Imports must target the caller's own user.
 */
import { encodeAddress, publicKeyForCurve } from '@latchkey/crypto';
import { AppError, ZImportPrivateKeyIntentSchema, type TImportPrivateKeyIntent, type TImportPrivateKeyResult, IMPORT_PRIVATE_KEY_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { storePrivateKey } from './create-private-keys.js';
import { assertOwnUser, importedPrivateKey, openWithTarget } from '../../keys/import-targets.js';

export const importPrivateKey: TActivityDefinition<TImportPrivateKeyIntent, TImportPrivateKeyResult> = {
  ...IMPORT_PRIVATE_KEY_ACTIVITY,
  params: ZImportPrivateKeyIntentSchema,
  async handle(ctx, p) {
    await assertOwnUser(ctx, p.userId);
    const plaintext = await openWithTarget(ctx, 'PRIVATE_KEY', p.userId, p.encryptedBundle);
    const privateKey = importedPrivateKey(p.curve, plaintext);
    plaintext.fill(0);
    try {
      let publicKey: Uint8Array;
      try {
        publicKey = publicKeyForCurve(p.curve, privateKey);
      } catch {
        throw new AppError('BAD_REQUEST', `the imported bytes are not a valid ${p.curve} private key`, { field: 'encryptedBundle' });
      }
      const addresses = [...new Set(p.addressFormats)].map((format) => {
        try {
          return { format, address: encodeAddress(p.curve, format, publicKey) };
        } catch (e) {
          throw new AppError('BAD_REQUEST', e instanceof Error ? e.message : String(e), { field: 'addressFormats' });
        }
      });
      const privateKeyId = await storePrivateKey(ctx, { name: p.privateKeyName, curve: p.curve, privateKey, publicKey, addresses, tagIds: [], imported: true });
      return { privateKeyId, addresses };
    } finally {
      privateKey.fill(0);
    }
  },
};
