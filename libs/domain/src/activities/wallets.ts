/**
 * Wire schemas of the wallet activities beyond create_wallet: create_wallet_accounts,
 * update_wallet, delete_wallets, delete_wallet_accounts.
 */
import { z } from 'zod';
import { ZIdentifierSchema } from '../common.js';
import { MAX_WALLET_ACCOUNTS, ZWalletAccountParamsSchema } from './create-wallet.js';
import { defineActivityWire } from '../activity.js';

const ids = (what: string) =>
  z.array(ZIdentifierSchema).min(1, `must list at least one ${what}`).max(100, `must list at most 100 ${what}s`);

export const ZCreateWalletAccountsIntentSchema = z.object({
  walletId: ZIdentifierSchema,
  accounts: z.array(ZWalletAccountParamsSchema).min(1, 'must hold at least one account').max(MAX_WALLET_ACCOUNTS, `must hold at most ${MAX_WALLET_ACCOUNTS} accounts`),
  /** false: derive and return the addresses without storing the accounts. Default true. */
  persist: z.boolean().default(true),
});
export type TCreateWalletAccountsIntent = z.output<typeof ZCreateWalletAccountsIntentSchema>;
export const ZCreateWalletAccountsResultSchema = z.object({ addresses: z.array(z.string()) });
export type TCreateWalletAccountsResult = z.infer<typeof ZCreateWalletAccountsResultSchema>;

export const ZUpdateWalletIntentSchema = z.object({
  walletId: ZIdentifierSchema,
  walletName: z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters').optional(),
});
export type TUpdateWalletIntent = z.output<typeof ZUpdateWalletIntentSchema>;
export const ZUpdateWalletResultSchema = z.object({ walletId: ZIdentifierSchema });
export type TUpdateWalletResult = z.infer<typeof ZUpdateWalletResultSchema>;

export const ZDeleteWalletsIntentSchema = z.object({
  walletIds: ids('wallet id'),
  /** Delete wallets that were never exported (their seed is then gone for good). Ignored for exported ones. */
  deleteWithoutExport: z.boolean().default(false),
});
export type TDeleteWalletsIntent = z.output<typeof ZDeleteWalletsIntentSchema>;
export const ZDeleteWalletsResultSchema = z.object({ walletIds: z.array(ZIdentifierSchema) });
export type TDeleteWalletsResult = z.infer<typeof ZDeleteWalletsResultSchema>;

export const ZDeleteWalletAccountsIntentSchema = z.object({
  walletAccountIds: ids('wallet account id'),
  deleteWithoutExport: z.boolean().default(false),
});
export type TDeleteWalletAccountsIntent = z.output<typeof ZDeleteWalletAccountsIntentSchema>;
export const ZDeleteWalletAccountsResultSchema = z.object({ walletAccountIds: z.array(ZIdentifierSchema) });
export type TDeleteWalletAccountsResult = z.infer<typeof ZDeleteWalletAccountsResultSchema>;

/** Wire names of `create_wallet_accounts`: every accepted `type`, with its intent and result keys. */
export const CREATE_WALLET_ACCOUNTS_ACTIVITY = defineActivityWire('create_wallet_accounts', [{ type: 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS', intentKey: 'createWalletAccountsIntent', resultKey: 'createWalletAccountsResult' }]);

/** Wire names of `delete_wallet_accounts`: every accepted `type`, with its intent and result keys. */
export const DELETE_WALLET_ACCOUNTS_ACTIVITY = defineActivityWire('delete_wallet_accounts', [{ type: 'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS', intentKey: 'deleteWalletAccountsIntent', resultKey: 'deleteWalletAccountsResult' }]);

/** Wire names of `delete_wallets`: every accepted `type`, with its intent and result keys. */
export const DELETE_WALLETS_ACTIVITY = defineActivityWire('delete_wallets', [{ type: 'ACTIVITY_TYPE_DELETE_WALLETS', intentKey: 'deleteWalletsIntent', resultKey: 'deleteWalletsResult' }]);

/** Wire names of `update_wallet`: every accepted `type`, with its intent and result keys. */
export const UPDATE_WALLET_ACTIVITY = defineActivityWire('update_wallet', [{ type: 'ACTIVITY_TYPE_UPDATE_WALLET', intentKey: 'updateWalletIntent', resultKey: 'updateWalletResult' }]);
