/**
 * create_wallet — a new HD wallet: a fresh BIP39 mnemonic, sealed by the key vault, and the
 * requested accounts derived from it. Schema: `@latchkey/domain` ZCreateWalletIntentSchema.
 * Writes: the wallet and its accounts (one transaction with the activity row and its outbox
 * event).
 */
import { createMnemonic } from '@latchkey/crypto';
import {
  CREATE_WALLET_INTENT_KEY,
  CREATE_WALLET_RESULT_KEY,
  CREATE_WALLET_TYPES,
  ZCreateWalletIntentSchema,
  type TCreateWalletIntent,
  type TCreateWalletResult, CREATE_WALLET_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { storeNewWallet, validateAccountParams } from '../../keys/wallet-accounts.js';

export const createWallet: TActivityDefinition<TCreateWalletIntent, TCreateWalletResult> = {
  ...CREATE_WALLET_ACTIVITY,
  params: ZCreateWalletIntentSchema,
  validate: (p) => validateAccountParams(p.accounts),
  handle: (ctx, p) => storeNewWallet(ctx, { name: p.walletName, mnemonic: createMnemonic(p.mnemonicLength), accounts: p.accounts, imported: false }),
};
