/**
 * Wire schemas of encrypted export (export_wallet, export_wallet_account, export_private_key) and
 * import (init_import_wallet, import_wallet, init_import_private_key, import_private_key).
 */
import { z } from 'zod';
import { ZIdentifierSchema } from '../common.js';
import { ZAddressFormatSchema, ZCurveSchema } from '../enums.js';
import { MAX_WALLET_ACCOUNTS, ZWalletAccountParamsSchema } from './create-wallet.js';
import { defineActivityWire } from '../activity.js';

/** A P-256 public key in hex, compressed (02/03…) or uncompressed (04…). */
export const ZTargetPublicKeySchema = z
  .string()
  .regex(/^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/, 'must be a P-256 public key in hex (compressed 02/03… or uncompressed 04…)');

export const MNEMONIC_LANGUAGES = [
  'MNEMONIC_LANGUAGE_ENGLISH', 'MNEMONIC_LANGUAGE_SIMPLIFIED_CHINESE', 'MNEMONIC_LANGUAGE_TRADITIONAL_CHINESE', 'MNEMONIC_LANGUAGE_CZECH',
  'MNEMONIC_LANGUAGE_FRENCH', 'MNEMONIC_LANGUAGE_ITALIAN', 'MNEMONIC_LANGUAGE_JAPANESE', 'MNEMONIC_LANGUAGE_KOREAN', 'MNEMONIC_LANGUAGE_SPANISH',
] as const;

export const ZExportWalletIntentSchema = z.object({
  walletId: ZIdentifierSchema,
  targetPublicKey: ZTargetPublicKeySchema,
  language: z.enum(MNEMONIC_LANGUAGES).default('MNEMONIC_LANGUAGE_ENGLISH'),
});
export type TExportWalletIntent = z.output<typeof ZExportWalletIntentSchema>;
export const ZExportWalletResultSchema = z.object({ walletId: ZIdentifierSchema, exportBundle: z.string() });
export type TExportWalletResult = z.infer<typeof ZExportWalletResultSchema>;

export const ZExportWalletAccountIntentSchema = z.object({ address: z.string().min(1).max(256), targetPublicKey: ZTargetPublicKeySchema });
export type TExportWalletAccountIntent = z.output<typeof ZExportWalletAccountIntentSchema>;
export const ZExportWalletAccountResultSchema = z.object({ address: z.string(), exportBundle: z.string() });
export type TExportWalletAccountResult = z.infer<typeof ZExportWalletAccountResultSchema>;

export const ZExportPrivateKeyIntentSchema = z.object({ privateKeyId: ZIdentifierSchema, targetPublicKey: ZTargetPublicKeySchema });
export type TExportPrivateKeyIntent = z.output<typeof ZExportPrivateKeyIntentSchema>;
export const ZExportPrivateKeyResultSchema = z.object({ privateKeyId: ZIdentifierSchema, exportBundle: z.string() });
export type TExportPrivateKeyResult = z.infer<typeof ZExportPrivateKeyResultSchema>;

export const ZInitImportIntentSchema = z.object({ userId: ZIdentifierSchema });
export type TInitImportIntent = z.output<typeof ZInitImportIntentSchema>;
export const ZInitImportResultSchema = z.object({ importBundle: z.string() });
export type TInitImportResult = z.infer<typeof ZInitImportResultSchema>;

const encryptedBundle = z.string().min(1, 'must not be empty').max(100_000, 'is too large');

export const ZImportWalletIntentSchema = z.object({
  userId: ZIdentifierSchema,
  walletName: z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
  encryptedBundle,
  accounts: z.array(ZWalletAccountParamsSchema).max(MAX_WALLET_ACCOUNTS, `must hold at most ${MAX_WALLET_ACCOUNTS} accounts`),
});
export type TImportWalletIntent = z.output<typeof ZImportWalletIntentSchema>;
export const ZImportWalletResultSchema = z.object({ walletId: ZIdentifierSchema, addresses: z.array(z.string()) });
export type TImportWalletResult = z.infer<typeof ZImportWalletResultSchema>;

export const ZImportPrivateKeyIntentSchema = z.object({
  userId: ZIdentifierSchema,
  privateKeyName: z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
  encryptedBundle,
  curve: ZCurveSchema,
  addressFormats: z.array(ZAddressFormatSchema).max(40).default([]),
});
export type TImportPrivateKeyIntent = z.output<typeof ZImportPrivateKeyIntentSchema>;
export const ZImportPrivateKeyResultSchema = z.object({
  privateKeyId: ZIdentifierSchema,
  addresses: z.array(z.object({ format: ZAddressFormatSchema, address: z.string() })),
});
export type TImportPrivateKeyResult = z.infer<typeof ZImportPrivateKeyResultSchema>;

/** Wire names of `export_private_key`: every accepted `type`, with its intent and result keys. */
export const EXPORT_PRIVATE_KEY_ACTIVITY = defineActivityWire('export_private_key', [{ type: 'ACTIVITY_TYPE_EXPORT_PRIVATE_KEY', intentKey: 'exportPrivateKeyIntent', resultKey: 'exportPrivateKeyResult' }]);

/** Wire names of `import_private_key`: every accepted `type`, with its intent and result keys. */
export const IMPORT_PRIVATE_KEY_ACTIVITY = defineActivityWire('import_private_key', [{ type: 'ACTIVITY_TYPE_IMPORT_PRIVATE_KEY', intentKey: 'importPrivateKeyIntent', resultKey: 'importPrivateKeyResult' }]);

/** Wire names of `init_import_private_key`: every accepted `type`, with its intent and result keys. */
export const INIT_IMPORT_PRIVATE_KEY_ACTIVITY = defineActivityWire('init_import_private_key', [{ type: 'ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY', intentKey: 'initImportPrivateKeyIntent', resultKey: 'initImportPrivateKeyResult' }]);

/** Wire names of `export_wallet_account`: every accepted `type`, with its intent and result keys. */
export const EXPORT_WALLET_ACCOUNT_ACTIVITY = defineActivityWire('export_wallet_account', [{ type: 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT', intentKey: 'exportWalletAccountIntent', resultKey: 'exportWalletAccountResult' }]);

/** Wire names of `export_wallet`: every accepted `type`, with its intent and result keys. */
export const EXPORT_WALLET_ACTIVITY = defineActivityWire('export_wallet', [{ type: 'ACTIVITY_TYPE_EXPORT_WALLET', intentKey: 'exportWalletIntent', resultKey: 'exportWalletResult' }]);

/** Wire names of `import_wallet`: every accepted `type`, with its intent and result keys. */
export const IMPORT_WALLET_ACTIVITY = defineActivityWire('import_wallet', [{ type: 'ACTIVITY_TYPE_IMPORT_WALLET', intentKey: 'importWalletIntent', resultKey: 'importWalletResult' }]);

/** Wire names of `init_import_wallet`: every accepted `type`, with its intent and result keys. */
export const INIT_IMPORT_WALLET_ACTIVITY = defineActivityWire('init_import_wallet', [{ type: 'ACTIVITY_TYPE_INIT_IMPORT_WALLET', intentKey: 'initImportWalletIntent', resultKey: 'initImportWalletResult' }]);
