/**
 * create_wallet — a new HD wallet: a fresh BIP39 mnemonic, sealed by the key vault, and the
 * requested accounts derived from it. Schema: `@latchkey/domain` ZCreateWalletIntentSchema.
 * Policy: resource WALLET, action CREATE. Writes: the wallet and its accounts (one transaction
 * with the activity row and its outbox event).
 */
import {
  AddressFormatError,
  DerivationError,
  SeedDeriver,
  assertAddressFormat,
  createMnemonic,
  encodeAddress,
  newId,
  parseDerivationPath,
} from '@latchkey/crypto';
import {
  AppError,
  CREATE_WALLET_INTENT_KEY,
  CREATE_WALLET_RESULT_KEY,
  CREATE_WALLET_TYPES,
  ZCreateWalletIntentSchema,
  type TCreateWalletIntent,
  type TCreateWalletResult,
  type TWalletAccountParams,
} from '@latchkey/domain';
import { isUniqueViolation, type TNewWalletAccount } from '@latchkey/persistence';
import type { TActivityDefinition } from '../../engine/activity-definition.js';

/** The vault binding of a wallet's seed: a sealed seed cannot be moved to another wallet. */
export const walletSeedAad = (walletId: string) => `wallet-seed:${walletId}`;

/**
 * Stateless checks of account parameters, shared by every activity that derives accounts.
 * @throws AppError BAD_REQUEST naming the account and what is wrong with it.
 */
export function validateAccountParams(accounts: readonly TWalletAccountParams[]): void {
  const seen = new Set<string>();
  accounts.forEach((a, i) => {
    try {
      const { canonical } = parseDerivationPath(a.path);
      assertAddressFormat(a.curve, a.addressFormat);
      if (a.curve !== 'CURVE_SECP256K1') throw new DerivationError(`${a.curve} derivation is not available yet; use CURVE_SECP256K1`);
      const key = `${a.curve}|${canonical}|${a.addressFormat}`;
      if (seen.has(key)) throw new DerivationError(`duplicate account (same curve, path and address format)`);
      seen.add(key);
    } catch (e) {
      if (e instanceof AddressFormatError) {
        throw new AppError('BAD_REQUEST', `accounts[${i}]: ${e.message}`, { field: `accounts.${i}.addressFormat`, allowedCurves: e.allowedCurves });
      }
      if (e instanceof DerivationError) throw new AppError('BAD_REQUEST', `accounts[${i}]: ${e.message}`, { field: `accounts.${i}` });
      throw e;
    }
  });
}

/** Derives accounts of one seed into rows ready to insert. Private keys are wiped after use. */
export function deriveAccounts(mnemonic: string, organizationId: string, walletId: string, accounts: readonly TWalletAccountParams[]): TNewWalletAccount[] {
  const deriver = SeedDeriver.fromMnemonic(mnemonic);
  return accounts.map((a) => {
    const key = deriver.derive(a.curve, a.path);
    try {
      return {
        id: newId(),
        organizationId,
        walletId,
        curve: a.curve,
        pathFormat: a.pathFormat,
        path: key.path,
        addressFormat: a.addressFormat,
        address: encodeAddress(a.curve, a.addressFormat, key.publicKey),
        publicKey: Buffer.from(key.publicKey).toString("hex"),
        name: a.name ?? null,
      };
    } finally {
      key.privateKey.fill(0);
    }
  });
}

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
