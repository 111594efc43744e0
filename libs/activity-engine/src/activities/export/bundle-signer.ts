/**
 * The server's bundle-signing key (the `signer` server key, sealed by the vault): export and
 * import bundles are signed with it, and clients pin its public half through
 * `dangerouslyOverrideSignerPublicKey` (published at /.well-known/latchkey.json).
 */
import type { TActivityContext } from '../../engine/activity-definition.js';
import { serverKeyAad } from '../../installation/installation.js';

export interface TBundleSigner {
  privateKey: Uint8Array;
  publicKeyUncompressedHex: string;
}

/** Runs `fn` with the signer's key, wiping it afterwards. @throws Error when the key is missing. */
export async function withBundleSigner<T>(ctx: TActivityContext, fn: (signer: TBundleSigner) => T | Promise<T>): Promise<T> {
  const key = (await ctx.tx.system.serverKeys()).find((k) => k.purpose === 'signer');
  if (!key) throw new Error('the server signer key is missing; run `latchkey migrate`');
  const signer = { privateKey: ctx.vault.open(key.sealedPrivateKey, serverKeyAad('signer')), publicKeyUncompressedHex: key.publicKey };
  try {
    // Awaited here, so the key is wiped only once `fn` has finished with it.
    return await fn(signer);
  } finally {
    signer.privateKey.fill(0);
  }
}
