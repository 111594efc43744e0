/**
 * create_wallet — a new HD wallet: a fresh BIP39 mnemonic, sealed by the key vault, and the
 * requested accounts derived from it. Schema: `@latchkey/domain` ZCreateWalletIntentSchema.
 * Policy: resource WALLET, action CREATE. Writes: the wallet and its accounts (one transaction
 * with the activity row and its outbox event).
 */
import { createMnemonic, newId } from '@latchkey/crypto';
import {
  AppError,
  CREATE_WALLET_INTENT_KEY,
  CREATE_WALLET_RESULT_KEY,
  CREATE_WALLET_TYPES,
  ZCreateWalletIntentSchema,
  type TCreateWalletIntent,
  type TCreateWalletResult,
} from '@latchkey/domain';
import { isUniqueViolation } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { deriveAccounts, validateAccountParams, walletSeedAad } from '../wallet-accounts.js';

export const createWallet: TActivityDefinition<TCreateWalletIntent, TCreateWalletResult> = {
  path: 'create_wallet',
  versions: [{ type: CREATE_WALLET_TYPES[0], intentKey: CREATE_WALLET_INTENT_KEY, resultKey: CREATE_WALLET_RESULT_KEY }],
  resource: 'WALLET',
  action: 'CREATE',
  params: ZCreateWalletIntentSchema,
  validate: (p) => validateAccountParams(p.accounts),
  async handle(ctx, p) {
    const walletId = newId();
    const mnemonic = createMnemonic(p.mnemonicLength);
    const accounts = deriveAccounts(mnemonic, ctx.organizationId, walletId, p.accounts);
    try {
      await ctx.tx.wallets.create(
        {
          id: walletId,
          organizationId: ctx.organizationId,
          name: p.walletName,
          sealedSeed: ctx.vault.seal(new TextEncoder().encode(mnemonic), walletSeedAad(walletId)),
          mnemonicLength: p.mnemonicLength,
        },
        accounts,
      );
    } catch (e) {
      // The only unique key a new wallet can hit is its name (a partial unique index).
      if (isUniqueViolation(e)) {
        throw new AppError('BAD_REQUEST', `wallet name must be unique: a wallet named ${JSON.stringify(p.walletName)} already exists`, { field: 'walletName' });
      }
      throw e;
    }
    return { walletId, addresses: accounts.map((a) => a.address) };
  },
};
