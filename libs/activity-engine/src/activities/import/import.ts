/**
 * Encrypted import. init_import_wallet / init_import_private_key hand the caller a one-time P-256
 * target (its private half sealed by the vault) inside an envelope signed by the server's signer
 * key, bound to the organization and the importing user; the client encrypts the mnemonic or key
 * to it (`@turnkey/crypto` encryptWalletToBundle / encryptPrivateKeyToBundle), and import_wallet /
 * import_private_key open it with that user's unused target. A bundle made for another user or
 * organization cannot be opened, so it is refused. Imports must target the caller's own user.
 * Policy: WALLET or PRIVATE_KEY / IMPORT.
 */
import {
  BundleError,
  createImportBundle,
  decodeImportedMnemonic,
  encodeAddress,
  generateP256KeyPair,
  isValidMnemonic,
  newId,
  openImportedBundle,
  publicKeyForCurve,
} from '@latchkey/crypto';
import {
  AppError,
  ZImportPrivateKeyIntentSchema,
  ZImportWalletIntentSchema,
  ZInitImportIntentSchema,
  type TImportPrivateKeyIntent,
  type TImportPrivateKeyResult,
  type TImportWalletIntent,
  type TImportWalletResult,
  type TInitImportIntent,
  type TInitImportResult,
} from '@latchkey/domain';
import type { TImportKind } from '@latchkey/persistence';
import type { TActivityContext, TActivityDefinition } from '../../engine/activity-definition.js';
import { storePrivateKey } from '../create-private-keys/create-private-keys.js';
import { withBundleSigner } from '../export/bundle-signer.js';
import { storeNewWallet, validateAccountParams } from '../wallet-accounts.js';

/** How long an import target stays usable. */
export const IMPORT_TARGET_TTL_MS = 60 * 60 * 1000;
const targetAad = (id: string) => `import-target:${id}`;

async function assertOwnUser(ctx: TActivityContext, userId: string): Promise<void> {
  if (!(await ctx.tx.users.findById(ctx.organizationId, userId))) throw new AppError('NOT_FOUND', `user not found: ${userId}`, { userId });
  if (userId !== ctx.principal.userId) throw new AppError('REQUEST_NOT_AUTHORIZED', 'request not authorized: imports must target the caller’s own user', { userId });
}

function initImport(kind: TImportKind) {
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
async function openWithTarget(ctx: TActivityContext, kind: TImportKind, userId: string, encryptedBundle: string): Promise<Uint8Array> {
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

export const initImportWallet: TActivityDefinition<TInitImportIntent, TInitImportResult> = {
  path: 'init_import_wallet',
  versions: [{ type: 'ACTIVITY_TYPE_INIT_IMPORT_WALLET', intentKey: 'initImportWalletIntent', resultKey: 'initImportWalletResult' }],
  resource: 'WALLET',
  action: 'IMPORT',
  params: ZInitImportIntentSchema,
  handle: initImport('WALLET'),
};

export const initImportPrivateKey: TActivityDefinition<TInitImportIntent, TInitImportResult> = {
  path: 'init_import_private_key',
  versions: [{ type: 'ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY', intentKey: 'initImportPrivateKeyIntent', resultKey: 'initImportPrivateKeyResult' }],
  resource: 'PRIVATE_KEY',
  action: 'IMPORT',
  params: ZInitImportIntentSchema,
  handle: initImport('PRIVATE_KEY'),
};

export const importWallet: TActivityDefinition<TImportWalletIntent, TImportWalletResult> = {
  path: 'import_wallet',
  versions: [{ type: 'ACTIVITY_TYPE_IMPORT_WALLET', intentKey: 'importWalletIntent', resultKey: 'importWalletResult' }],
  resource: 'WALLET',
  action: 'IMPORT',
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

/** The 32-byte private key of an import plaintext: raw bytes, or ed25519's `private ‖ public`. */
function importedPrivateKey(curve: TImportPrivateKeyIntent['curve'], plaintext: Uint8Array): Uint8Array {
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

export const importPrivateKey: TActivityDefinition<TImportPrivateKeyIntent, TImportPrivateKeyResult> = {
  path: 'import_private_key',
  versions: [{ type: 'ACTIVITY_TYPE_IMPORT_PRIVATE_KEY', intentKey: 'importPrivateKeyIntent', resultKey: 'importPrivateKeyResult' }],
  resource: 'PRIVATE_KEY',
  action: 'IMPORT',
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
