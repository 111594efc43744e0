/**
 * What every activity that derives wallet accounts shares: the stateless checks of account
 * parameters, derivation of a batch from one seed (each account's private key sealed by the vault
 * as it is stored), and opening an
 * account's key for one operation.
 */
import { walletAccountKeyAad, walletSeedAad } from './vault-aad.js';
import {
  AddressFormatError,
  DerivationError,
  HARDENED_OFFSET,
  SeedDeriver,
  assertAddressFormat,
  createMnemonic,
  inlineDerivation,
  newId,
  parseDerivationPath,
  type TCurveName,
  type TDerivationPool,
  type TKeyVault,
} from '@latchkey/crypto';
import { AppError, type TWalletAccountParams } from '@latchkey/domain';
import { isUniqueViolation, type TNewWallet, type TNewWalletAccount } from '@latchkey/persistence';
import type { TActivityContext } from '../engine/activity-definition.js';
import type { TEngineServices } from '../engine/services.js';

/**
 * Stateless checks of account parameters, shared by every activity that derives accounts.
 * @throws AppError BAD_REQUEST naming the account and what is wrong with it.
 */
export function validateAccountParams(accounts: readonly TWalletAccountParams[]): void {
  const seen = new Set<string>();
  accounts.forEach((a, i) => {
    try {
      const { canonical, indexes } = parseDerivationPath(a.path);
      assertAddressFormat(a.curve, a.addressFormat);
      if (a.curve === 'CURVE_ED25519' && indexes.some((i) => i < HARDENED_OFFSET)) {
        throw new DerivationError(`ed25519 supports only hardened derivation (SLIP-0010): every segment of ${a.path} must end in '`);
      }
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

/**
 * Derives accounts of one seed into rows ready to insert: on the derivation pool's worker threads
 * when the batch is large and a pool is configured (services.derivation), else inline. With
 * `vault`, each row carries its private key sealed to the row's id (what signing opens later);
 * without (rows that will not be stored: `persist: false`), nothing is sealed. Private keys are
 * wiped after use either way.
 */
export async function deriveAccounts(
  derivation: TDerivationPool | undefined,
  mnemonic: string,
  organizationId: string,
  walletId: string,
  accounts: readonly TWalletAccountParams[],
  vault?: Pick<TKeyVault, 'seal'>,
  /** The mnemonic's BIP39 seed, when the caller has it (a fresh wallet's); the caller zeroes it. */
  seed?: Uint8Array,
): Promise<TNewWalletAccount[]> {
  const specs = accounts.map((a) => ({ curve: a.curve, path: a.path, addressFormat: a.addressFormat }));
  const derived = await (derivation ?? INLINE).derive(mnemonic, specs, seed);
  try {
    return derived.map((key, i) => {
      const a = accounts[i]!;
      const id = newId();
      return {
        id,
        organizationId,
        walletId,
        curve: a.curve,
        pathFormat: a.pathFormat,
        path: key.path,
        addressFormat: a.addressFormat,
        address: key.address,
        publicKey: Buffer.from(key.publicKey).toString('hex'),
        name: a.name ?? null,
        sealedPrivateKey: vault ? vault.seal(key.privateKey, walletAccountKeyAad(id)) : null,
      };
    });
  } finally {
    for (const key of derived) key.privateKey.fill(0);
  }
}

const INLINE = inlineDerivation();

/**
 * The private key of a wallet account, for one operation (the caller wipes it): opened from the
 * account's own sealed key, or — for an account derived before migration 0009, which has none —
 * re-derived from its wallet's seed. `source` is `wallets.findAccountKeySource`'s row.
 * @throws VaultError when a sealed value does not open (wrong master key, moved or altered row)
 */
export function openAccountKey(
  vault: Pick<TKeyVault, 'open'>,
  source: { id: string; walletId: string; curve: string; path: string; sealedPrivateKey: string | null; sealedSeed: string | null },
): Uint8Array {
  if (source.sealedPrivateKey !== null) return vault.open(source.sealedPrivateKey, walletAccountKeyAad(source.id));
  if (source.sealedSeed === null) throw new Error(`wallet account ${source.id} has neither a sealed key nor a wallet seed`);
  return SeedDeriver.fromMnemonic(openWalletSeed(vault, { id: source.walletId, sealedSeed: source.sealedSeed })).derive(source.curve as TCurveName, source.path).privateKey;
}

/** Opens a wallet's sealed mnemonic. The caller keeps it only for the one operation. */
export function openWalletSeed(vault: { open(sealed: string, aad: string): Uint8Array }, wallet: { id: string; sealedSeed: string }): string {
  return new TextDecoder().decode(vault.open(wallet.sealedSeed, walletSeedAad(wallet.id)));
}

/** The error for a wallet name another live wallet of the organization already has. */
export const walletNameTaken = (name: string) =>
  new AppError('BAD_REQUEST', `wallet name must be unique: a wallet named ${JSON.stringify(name)} already exists`, { field: 'walletName' });

/** A new wallet's secret: a ready one from `services.freshWallets` (mnemonic and seed), else a mnemonic made now. */
export async function freshWalletSecret(services: TEngineServices, words: number | undefined): Promise<{ mnemonic: string; seed?: Uint8Array }> {
  return services.freshWallets ? services.freshWallets.take(words ?? 12) : { mnemonic: createMnemonic(words) };
}

/** What a new wallet is made of: its row (the mnemonic sealed by the vault), its accounts' rows (each key sealed) and the answer. */
export interface TNewWalletRows {
  wallet: TNewWallet;
  accounts: TNewWalletAccount[];
  result: { walletId: string; addresses: string[] };
}

/**
 * A new wallet's rows, written by nobody yet: `storeNewWallet` writes them in the activity's
 * transaction, create_wallet's `stage` hands them to the activity's own statement. `seed` (the
 * mnemonic's, when known) is zeroed once the accounts are derived.
 */
export async function newWalletRows(
  ctx: TActivityContext,
  w: { name: string; mnemonic: string; seed?: Uint8Array | undefined; accounts: readonly TWalletAccountParams[]; imported: boolean },
): Promise<TNewWalletRows> {
  const walletId = newId();
  let accounts: TNewWalletAccount[];
  try {
    accounts = await deriveAccounts(ctx.services.derivation, w.mnemonic, ctx.organizationId, walletId, w.accounts, ctx.vault, w.seed);
  } finally {
    w.seed?.fill(0);
  }
  const wallet = {
    id: walletId,
    organizationId: ctx.organizationId,
    name: w.name,
    sealedSeed: ctx.vault.seal(new TextEncoder().encode(w.mnemonic), walletSeedAad(walletId)),
    mnemonicLength: w.mnemonic.split(' ').length,
    imported: w.imported,
  };
  return { wallet, accounts, result: { walletId, addresses: accounts.map((a) => a.address) } };
}

/**
 * Stores a new wallet (its mnemonic sealed by the vault) with the accounts derived from it (each
 * key sealed by the vault): create_wallet, import_wallet and create_sub_organization share this.
 * @throws AppError when the name is taken (a partial unique index, so concurrent creates race safely)
 */
export async function storeNewWallet(
  ctx: TActivityContext,
  w: { name: string; mnemonic: string; seed?: Uint8Array | undefined; accounts: readonly TWalletAccountParams[]; imported: boolean },
): Promise<{ walletId: string; addresses: string[] }> {
  const { wallet, accounts, result } = await newWalletRows(ctx, w);
  try {
    await ctx.tx.wallets.create(wallet, accounts);
  } catch (e) {
    // The only unique key a new wallet can hit is its name.
    if (isUniqueViolation(e)) throw walletNameTaken(w.name);
    throw e;
  }
  return result;
}
