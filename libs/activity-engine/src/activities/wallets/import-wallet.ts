/**
 * Encrypted import. init_import_wallet / init_import_private_key hand the caller a one-time P-256
 * target (its private half sealed by the vault) inside an envelope signed by the server's signer
 * key, bound to the organization and the importing user; the client encrypts the mnemonic or key
 * to it (`@turnkey/crypto` encryptWalletToBundle / encryptPrivateKeyToBundle), and import_wallet /
 * import_private_key open it with that user's unused target. A bundle made for another user or
 * organization cannot be opened, so it is refused. Imports must target the caller's own user.
 */
import { BundleError, decodeImportedMnemonic, isValidMnemonic } from '@latchkey/crypto';
import { AppError, ZImportWalletIntentSchema, type TImportWalletIntent, type TImportWalletResult, IMPORT_WALLET_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { storeNewWallet, validateAccountParams } from '../../keys/wallet-accounts.js';
import { assertOwnUser, openWithTarget } from '../../keys/import-targets.js';

export const importWallet: TActivityDefinition<TImportWalletIntent, TImportWalletResult> = {
  ...IMPORT_WALLET_ACTIVITY,
  params: ZImportWalletIntentSchema,
  validate: (p) => validateAccountParams(p.accounts),
  async handle(ctx, p) {
    await assertOwnUser(ctx, p.userId);
    const bytes = await openWithTarget(ctx, 'WALLET', p.userId, p.encryptedBundle);
    let text: string;
    try {
      text = decodeImportedMnemonic(bytes);
    } catch (e) {
      if (e instanceof BundleError) throw new AppError('BAD_REQUEST', e.message, { field: 'encryptedBundle' });
      throw e;
    } finally {
      bytes.fill(0);
    }
    // Turnkey's import frame appends "\n--PASS--\n<passphrase>" for BIP39 passphrases.
    if (text.includes('--PASS--')) throw new AppError('BAD_REQUEST', 'mnemonics with a BIP39 passphrase cannot be imported yet', { field: 'encryptedBundle' });
    const mnemonic = text.trim().normalize('NFKD');
    if (!isValidMnemonic(mnemonic)) throw new AppError('BAD_REQUEST', 'the imported bundle does not hold a valid BIP39 English mnemonic', { field: 'encryptedBundle' });
    return storeNewWallet(ctx, { name: p.walletName, mnemonic, accounts: p.accounts, imported: true });
  },
};
