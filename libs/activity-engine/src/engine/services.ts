/**
 * What handlers reach beyond the database: the server's own keys (opened from the vault for one
 * operation), message delivery (e-mail, SMS) and OIDC token verification. The launcher builds the
 * real ones from the configuration; tests pass their own (a real SMTP capture server, a real
 * OpenID provider), behind the same interfaces.
 */
import type { TDerivationPool, TKeyVault } from '@latchkey/crypto';
import type { TRepositories } from '@latchkey/persistence';
import type { TMailer } from '../delivery/mailer.js';
import type { TSmsProvider } from '../delivery/sms.js';
import type { TOidcVerifier } from '../oidc/oidc-verifier.js';
import type { TOauth2Config } from '../activities/oauth2/oauth2-config.js';
import { serverKeyAad, type TServerKeyPurpose } from '../installation/installation.js';

/** The parts of a mailer and an SMS provider handlers use (delivery/ has the real ones). */
export type TMailSender = Pick<TMailer, 'send'>;
export type TSmsSender = Pick<TSmsProvider, 'send'>;

export type { TVerifiedIdToken } from '../oidc/oidc-verifier.js';
/** The part of the OIDC verifier handlers use (oidc/ has the real one). */
export type TIdTokenVerifier = Pick<TOidcVerifier, 'verify'>;

export interface TEngineServices {
  mail: TMailSender;
  sms: TSmsSender;
  oidc: TIdTokenVerifier;
  /** oauth2_authenticate's provider endpoints and Latchkey's issuer URL; absent: that activity is refused. */
  oauth2?: TOauth2Config;
  /** Worker threads for large account batches (derivation-pool.ts); absent: derivation runs inline. */
  derivation?: TDerivationPool;
}

export interface TServerKey {
  privateKey: Uint8Array;
  publicKeyUncompressedHex: string;
}

/** Runs `fn` with one of the server's keys, wiping the private half afterwards. */
export async function withServerKey<T>(
  tx: Pick<TRepositories, 'system'>,
  vault: TKeyVault,
  purpose: TServerKeyPurpose,
  fn: (key: TServerKey) => T | Promise<T>,
): Promise<T> {
  const row = (await tx.system.serverKeys()).find((k) => k.purpose === purpose);
  if (!row) throw new Error(`the server key ${purpose} is missing; run \`latchkey migrate\``);
  const key = { privateKey: vault.open(row.sealedPrivateKey, serverKeyAad(purpose)), publicKeyUncompressedHex: row.publicKey };
  try {
    return await fn(key);
  } finally {
    key.privateKey.fill(0);
  }
}

/** Services that refuse to deliver: for engines that run no login flows (tools, some tests). */
export function unconfiguredServices(): TEngineServices {
  const refuse = (what: string) => () => Promise.reject(new Error(`${what} is not configured in this process`));
  return { mail: { send: refuse('e-mail delivery') }, sms: { send: refuse('SMS delivery') }, oidc: { verify: refuse('OIDC verification') } };
}
