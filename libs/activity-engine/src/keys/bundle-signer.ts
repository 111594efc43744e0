/**
 * The server's bundle-signing key (the `signer` server key, sealed by the vault): export and
 * import bundles are signed with it, and clients pin its public half through
 * `dangerouslyOverrideSignerPublicKey` (published at /.well-known/latchkey.json).
 */
import type { TActivityContext } from '../engine/activity-definition.js';
import { withServerKey, type TServerKey } from './server-keys.js';

export type TBundleSigner = TServerKey;

/** Runs `fn` with the signer's key, wiping it afterwards. @throws Error when the key is missing. */
export function withBundleSigner<T>(ctx: TActivityContext, fn: (signer: TBundleSigner) => T | Promise<T>): Promise<T> {
  return withServerKey(ctx.tx, ctx.vault, 'signer', fn);
}
