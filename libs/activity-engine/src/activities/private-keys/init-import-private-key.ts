/**
 * Encrypted import. init_import_wallet / init_import_private_key hand the caller a one-time P-256
 * target (its private half sealed by the vault) inside an envelope signed by the server's signer
 * key, bound to the organization and the importing user; the client encrypts the mnemonic or key
 * to it (`@turnkey/crypto` encryptWalletToBundle / encryptPrivateKeyToBundle), and import_wallet /
 * import_private_key open it with that user's unused target. A bundle made for another user or
 * organization cannot be opened, so it is refused. Imports must target the caller's own user.
 */
import { ZInitImportIntentSchema, type TInitImportIntent, type TInitImportResult, INIT_IMPORT_PRIVATE_KEY_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { initImport } from '../../keys/import-targets.js';

export const initImportPrivateKey: TActivityDefinition<TInitImportIntent, TInitImportResult> = {
  ...INIT_IMPORT_PRIVATE_KEY_ACTIVITY,
  params: ZInitImportIntentSchema,
  handle: initImport('PRIVATE_KEY'),
};
