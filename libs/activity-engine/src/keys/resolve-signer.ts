/**
 * `signWith` → the key that signs: a wallet account address (its own sealed key, or, for accounts
 * derived before migration 0009, re-derived from the wallet's sealed seed), a private key id, or a
 * private key address. Each kind is looked up in one query (signing is read-only: outside any
 * transaction, on plain SQL — see TActivityDefinition.readOnly), and the sealed result is cached
 * (auth-cache.ts; dropped when keys of the organization are deleted). The private bytes live only for
 * the callback and are wiped after it, whatever happens.
 */
import type { TCurveName } from '@latchkey/crypto';
import { AppError } from '@latchkey/domain';
import type { TActivityContext } from '../engine/activity-definition.js';
import type { TSigner } from '../engine/auth-cache.js';
import { privateKeyAad } from './vault-aad.js';
import { openAccountKey } from './wallet-accounts.js';

export interface TSigningKey {
  curve: TCurveName;
  privateKey: Uint8Array;
  /** Compressed SEC1 (ECDSA curves) or raw 32 bytes (ed25519). */
  publicKey: Uint8Array;
}

/** The account (and what opens its key) or private key `signWith` names: from the cache when the context has one. */
async function lookup(ctx: TActivityContext, signWith: string): Promise<TSigner | null> {
  const org = ctx.organizationId;
  if (ctx.signers) return ctx.signers.signer(org, signWith);
  // The account and what opens its key (its sealed key, else its wallet's seed) in one query.
  const account = await ctx.tx.wallets.findAccountKeySource(org, signWith);
  if (account) return { kind: 'account', account };
  // A private key by id or address, in one query.
  const key = await ctx.tx.privateKeys.findSigningKey(org, signWith);
  return key ? { kind: 'private-key', key } : null;
}

async function resolve(ctx: TActivityContext, signWith: string): Promise<TSigningKey> {
  const found = await lookup(ctx, signWith);
  if (found?.kind === 'account') {
    const { account } = found;
    return { curve: account.curve as TCurveName, privateKey: openAccountKey(ctx.vault, account), publicKey: Buffer.from(account.publicKey, 'hex') };
  }
  if (found?.kind === 'private-key') {
    const pk = found.key;
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
