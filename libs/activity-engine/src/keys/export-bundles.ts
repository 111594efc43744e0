/**
 * export_wallet, export_wallet_account and export_private_key: the secret leaves the vault only as
 * an HPKE bundle encrypted to the caller's `targetPublicKey`, inside an envelope signed by the
 * server's signer key; the wallet, account or key is then marked exported.
 */
import { BundleError, createExportBundle } from '@latchkey/crypto';
import { AppError } from '@latchkey/domain';
import type { TActivityContext } from '../engine/activity-definition.js';
import { withBundleSigner } from './bundle-signer.js';

/** Seals `plaintext` to the target, wiping it afterwards. */
export async function bundle(ctx: TActivityContext, plaintext: Uint8Array, targetPublicKey: string): Promise<string> {
  try {
    return await withBundleSigner(ctx, (signer) => createExportBundle({ plaintext, targetPublicKey, organizationId: ctx.organizationId, signer }));
  } catch (e) {
    if (e instanceof BundleError) throw new AppError('BAD_REQUEST', e.message, { field: 'targetPublicKey' });
    throw e;
  } finally {
    plaintext.fill(0);
  }
}
