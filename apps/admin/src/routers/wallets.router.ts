/** Wallets and their accounts: lists; create and delete as activities. */
import {
  CREATE_WALLET_ACTIVITY,
  DELETE_WALLETS_ACTIVITY,
  ZCreateWalletIntentSchema,
  ZDeleteWalletsIntentSchema,
  ZListWalletAccountsRequestSchema,
  ZListWalletsRequestSchema,
  type TListWalletAccountsResponse,
  type TListWalletsResponse,
} from '@latchkey/domain';
import { engineQuery, engineSubmit } from '../trpc/engine-calls.js';
import { router } from '../trpc/init.js';

export const walletsRouter = router({
  list: engineQuery<TListWalletsResponse, typeof ZListWalletsRequestSchema>('list_wallets', ZListWalletsRequestSchema),
  accounts: engineQuery<TListWalletAccountsResponse, typeof ZListWalletAccountsRequestSchema>('list_wallet_accounts', ZListWalletAccountsRequestSchema),
  create: engineSubmit(CREATE_WALLET_ACTIVITY, ZCreateWalletIntentSchema),
  delete: engineSubmit(DELETE_WALLETS_ACTIVITY, ZDeleteWalletsIntentSchema),
});
