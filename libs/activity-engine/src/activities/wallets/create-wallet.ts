/**
 * create_wallet — a new HD wallet: a fresh BIP39 mnemonic (made ahead of time with its seed when
 * the platform keeps some ready: fresh-wallets.ts), sealed by the key vault, and the requested
 * accounts derived from it. Schema: `@latchkey/domain` ZCreateWalletIntentSchema.
 * Writes: the wallet and its accounts, with the activity row, its outbox event and its audit link —
 * staged into the activity's one statement when it runs as submitted (`stage`), in one
 * transaction when a vote decides it (`handle`).
 */
import { newWalletStatementRows } from '@latchkey/persistence';
import {
  CREATE_WALLET_INTENT_KEY,
  CREATE_WALLET_RESULT_KEY,
  CREATE_WALLET_TYPES,
  ZCreateWalletIntentSchema,
  type TCreateWalletIntent,
  type TCreateWalletResult, CREATE_WALLET_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { freshWalletSecret, newWalletRows, storeNewWallet, validateAccountParams, walletNameTaken } from '../../keys/wallet-accounts.js';

export const createWallet: TActivityDefinition<TCreateWalletIntent, TCreateWalletResult> = {
  ...CREATE_WALLET_ACTIVITY,
  params: ZCreateWalletIntentSchema,
  validate: (p) => validateAccountParams(p.accounts),
  handle: async (ctx, p) => storeNewWallet(ctx, { name: p.walletName, ...(await freshWalletSecret(ctx.services, p.mnemonicLength)), accounts: p.accounts, imported: false }),
  stage: async (ctx, p) => {
    const { wallet, accounts, result } = await newWalletRows(ctx, { name: p.walletName, ...(await freshWalletSecret(ctx.services, p.mnemonicLength)), accounts: p.accounts, imported: false });
    return { result, rows: newWalletStatementRows(wallet, accounts) };
  },
  // The only unique key a new wallet's rows can hit is its live name.
  stagedConflict: (p) => walletNameTaken(p.walletName),
};
