/** list_wallets, get_wallet and list_wallet_accounts (oldest first, cursor-paged). */
import {
  AppError,
  parsePagination,
  ZGetWalletAccountRequestSchema,
  ZGetWalletRequestSchema,
  ZListWalletAccountsRequestSchema,
  ZListWalletsRequestSchema,
  type TGetWalletAccountRequest,
  type TGetWalletAccountResponse,
  type TGetWalletRequest,
  type TGetWalletResponse,
  type TListWalletAccountsRequest,
  type TListWalletAccountsResponse,
  type TListWalletsRequest,
  type TListWalletsResponse,
} from '@latchkey/domain';
import { walletAccountToWire, walletToWire } from '../engine/serialize.js';
import type { TQueryDefinition } from './query-definition.js';

export const listWallets: TQueryDefinition<TListWalletsRequest, TListWalletsResponse> = {
  path: 'list_wallets',
  request: ZListWalletsRequestSchema,
  async handle(ctx) {
    return { wallets: (await ctx.store.wallets.list(ctx.organization.id)).map(walletToWire) };
  },
};

export const getWallet: TQueryDefinition<TGetWalletRequest, TGetWalletResponse> = {
  path: 'get_wallet',
  request: ZGetWalletRequestSchema,
  async handle(ctx, req) {
    const w = await ctx.store.wallets.findById(ctx.organization.id, req.walletId);
    if (!w) throw new AppError('NOT_FOUND', `wallet not found: ${req.walletId}`, { walletId: req.walletId });
    return { wallet: walletToWire(w) };
  },
};

export const listWalletAccounts: TQueryDefinition<TListWalletAccountsRequest, TListWalletAccountsResponse> = {
  path: 'list_wallet_accounts',
  request: ZListWalletAccountsRequestSchema,
  async handle(ctx, req) {
    const organizationId = ctx.organization.id;
    if (req.walletId !== undefined && !(await ctx.store.wallets.findById(organizationId, req.walletId))) {
      throw new AppError('NOT_FOUND', `wallet not found: ${req.walletId}`, { walletId: req.walletId });
    }
    const page = req.paginationOptions ?? parsePagination(undefined);
    const rows = await ctx.store.wallets.listAccounts({ organizationId, walletId: req.walletId, ...page });
    if (!req.includeWalletDetails) return { accounts: rows.map((a) => walletAccountToWire(a)) };
    const wallets = new Map(
      (await ctx.store.wallets.findByIds(organizationId, [...new Set(rows.map((a) => a.walletId))])).map((w) => [w.id, walletToWire(w)]),
    );
    return { accounts: rows.map((a) => walletAccountToWire(a, wallets.get(a.walletId))) };
  },
};

export const getWalletAccount: TQueryDefinition<TGetWalletAccountRequest, TGetWalletAccountResponse> = {
  path: 'get_wallet_account',
  request: ZGetWalletAccountRequestSchema,
  async handle(ctx, req) {
    const account = await ctx.store.wallets.findAccount(ctx.organization.id, req.walletId, { address: req.address, path: req.path });
    if (!account) throw new AppError('NOT_FOUND', `wallet account not found in wallet ${req.walletId}`, { walletId: req.walletId });
    return { account: walletAccountToWire(account) };
  },
};
