/**
 * Calls the admin app makes on the installation's own behalf, before anyone is signed in, signed
 * with the bootstrap API key Latchkey generated into bootstrap.json — the role an app's backend
 * plays for its users on Turnkey. Two callers: the setup link's credential registration, and the
 * e-mail OTP sign-in's `list_users` / `init_otp` / `verify_otp`. Each is an ordinary stamped
 * request through the engine, so it is authenticated, authorized and (for activities) logged
 * exactly like the same call on the public API.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { TEngine } from '@latchkey/activity-engine';
import { signP256 } from '@latchkey/crypto';
import { AppError, type TActivity, type TActivityWire } from '@latchkey/domain';

export interface TBootstrapIdentity {
  organizationId: string;
  userId: string;
  apiPublicKey: string;
  apiPrivateKey?: string;
}

/**
 * bootstrap.json's identity.
 * @throws AppError UNAVAILABLE when the file is missing or unreadable
 */
export async function readBootstrapIdentity(dataDir: string): Promise<TBootstrapIdentity> {
  try {
    return JSON.parse(await readFile(join(resolve(dataDir), 'bootstrap.json'), 'utf8')) as TBootstrapIdentity;
  } catch {
    throw new AppError('UNAVAILABLE', 'bootstrap.json cannot be read from the data folder (LATCHKEY_DATA_DIR) of this admin app');
  }
}

export interface TBootstrapSigner {
  organizationId: string;
  userId: string;
  publicKey: string;
  privateKeyHex: string;
}

/**
 * The bootstrap key, for `what` (named in the refusal).
 * @throws AppError REQUEST_NOT_AUTHORIZED when Latchkey never held the private key (LATCHKEY_ROOT_API_PUBLIC_KEY)
 */
export function bootstrapSigner(boot: TBootstrapIdentity, what: string): TBootstrapSigner {
  if (!boot.apiPrivateKey) {
    throw new AppError(
      'REQUEST_NOT_AUTHORIZED',
      `${what} is unavailable: this installation was started with LATCHKEY_ROOT_API_PUBLIC_KEY, so Latchkey never held the root private key it needs; sign in with a passkey or that key instead`,
    );
  }
  return { organizationId: boot.organizationId, userId: boot.userId, publicKey: boot.apiPublicKey, privateKeyHex: boot.apiPrivateKey };
}

function stamped(signer: TBootstrapSigner, body: object): { headers: { 'x-stamp': string }; raw: Buffer } {
  const raw = Buffer.from(JSON.stringify(body));
  const stamp = Buffer.from(JSON.stringify({ publicKey: signer.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: signP256(signer.privateKeyHex, raw) })).toString('base64url');
  return { headers: { 'x-stamp': stamp }, raw };
}

/** Submits one activity of `wire` (its first version unless `type` names another) as the bootstrap user. */
export async function submitAsBootstrap(engine: TEngine, signer: TBootstrapSigner, wire: TActivityWire, organizationId: string, parameters: object, type: string = wire.versions[0].type): Promise<TActivity> {
  const { headers, raw } = stamped(signer, { type, timestampMs: String(Date.now()), organizationId, parameters });
  return (await engine.submit(wire.path, headers, raw)).activity;
}

/** A query of the public API as the bootstrap user. */
export async function queryAsBootstrap<T>(engine: TEngine, signer: TBootstrapSigner, path: string, body: object): Promise<T> {
  const { headers, raw } = stamped(signer, body);
  return (await engine.query(path, headers, raw)) as T;
}

/**
 * The result of an activity that must have completed at once (the sign-in steps).
 * @throws AppError REQUEST_NOT_AUTHORIZED when a policy made it wait; BAD_REQUEST with its failure otherwise
 */
export function completedResult<T>(activity: TActivity, resultKey: string): T {
  if (activity.status === 'ACTIVITY_STATUS_COMPLETED') return activity.result[resultKey] as T;
  if (activity.status === 'ACTIVITY_STATUS_CONSENSUS_NEEDED') {
    throw new AppError('REQUEST_NOT_AUTHORIZED', `request not authorized: a policy or the root quorum makes ${activity.type} of the bootstrap user wait for approvals (activity ${activity.id})`, { activityId: activity.id });
  }
  throw new AppError('BAD_REQUEST', activity.failure?.message ?? `${activity.type} ended ${activity.status}`, { activityId: activity.id });
}
