/**
 * `signWith` → the key that signs: a wallet account address (the key is re-derived from the
 * wallet's sealed seed), a private key id, or a private key address. The private bytes live only
 * for the callback and are wiped after it, whatever happens.
 */
import { SeedDeriver, type TCurveName } from '@latchkey/crypto';
import { AppError } from '@latchkey/domain';
import type { TActivityContext } from '../../engine/activity-definition.js';
import { privateKeyAad } from '../create-private-keys/create-private-keys.js';
import { openWalletSeed } from '../wallet-accounts.js';

export interface TSigningKey {
  curve: TCurveName;
  privateKey: Uint8Array;
  /** Compressed SEC1 (ECDSA curves) or raw 32 bytes (ed25519). */
  publicKey: Uint8Array;
}

async function resolve(ctx: TActivityContext, signWith: string): Promise<TSigningKey> {
  const org = ctx.organizationId;
  const account = await ctx.tx.wallets.findAccountByAddress(org, signWith);
  if (account) {
    const wallet = await ctx.tx.wallets.findById(org, account.walletId);
    if (!wallet) throw new AppError('NOT_FOUND', `wallet of account ${signWith} not found`);
    const key = SeedDeriver.fromMnemonic(openWalletSeed(ctx.vault, wallet)).derive(account.curve as TCurveName, account.path);
    return { curve: key.curve, privateKey: key.privateKey, publicKey: key.publicKey };
  }
  const pk = (await ctx.tx.privateKeys.findById(org, signWith)) ?? (await ctx.tx.privateKeys.findByAddress(org, signWith));
  if (pk) {
    return { curve: pk.curve as TCurveName, privateKey: ctx.vault.open(pk.sealedPrivateKey, privateKeyAad(pk.id)), publicKey: Buffer.from(pk.publicKey, 'hex') };
  }
  throw new AppError('NOT_FOUND', `nothing to sign with: ${signWith} is neither a wallet account address nor a private key id or address`, { signWith });
}

/** Runs `fn` with the signing key of `signWith`. @throws AppError NOT_FOUND */
export async function withSigningKey<T>(ctx: TActivityContext, signWith: string, fn: (key: TSigningKey) => T | Promise<T>): Promise<T> {
  const key = await resolve(ctx, signWith);
  try {
    // Awaited here, so the key is wiped only once `fn` has finished with it.
    return await fn(key);
  } finally {
    key.privateKey.fill(0);
  }
}
