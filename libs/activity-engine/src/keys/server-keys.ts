/**
 * The server's own P-256 keys as the activities use them: which purposes exist, the vault AAD each
 * is sealed under, their public halves, and `withServerKey`, which opens one for a single
 * operation and wipes it afterwards. Creating them at first start is the platform's installation
 * step (libs/platform); the engine only reads them.
 */
import { randomEntropy, type TInstallEntropy, type TKeyVault } from '@latchkey/crypto';
import type { TInstallationRepositories, TInstallationStore, TRepositories } from '@latchkey/persistence';
import { serverKeyAad } from './vault-aad.js';

/**
 * `tls_fetcher`: the key clients encrypt OAuth 2.0 client secrets to (`encryptOauth2ClientSecret`);
 * `oidc_issuer`: signs the OIDC tokens oauth2_authenticate issues (published as the JWKS).
 */
export const SERVER_KEY_PURPOSES = ['signer', 'notarizer', 'otp_verifier', 'tls_fetcher', 'oidc_issuer'] as const;
export type TServerKeyPurpose = (typeof SERVER_KEY_PURPOSES)[number];

/** The advisory lock that serialises the installation's steps across processes (server keys, the first root organization). */
export const INSTALLATION_LOCK = 7_245_002;

/** Published at `/.well-known/latchkey.json` and in bootstrap.json (uncompressed hex). */
export interface TServerPublicKeys {
  signerPublicKey: string;
  notarizerPublicKey: string;
  otpVerifierPublicKey: string;
  /** Pass to `encryptOauth2ClientSecret` as `dangerouslyOverrideTlsFetcherPublicKey`. */
  tlsFetcherPublicKey: string;
  /** Signs Latchkey's own OIDC tokens; also published as `/oauth2/jwks`. */
  oidcIssuerPublicKey: string;
}

export interface TServerKey {
  privateKey: Uint8Array;
  publicKeyUncompressedHex: string;
}

/** @throws Error when a server key is missing (the launcher creates them). */
export async function loadServerPublicKeys(store: Pick<TInstallationRepositories, 'system'>): Promise<TServerPublicKeys> {
  const keys = new Map((await store.system.serverKeys()).map((k) => [k.purpose, k.publicKey]));
  const get = (p: TServerKeyPurpose) => {
    const k = keys.get(p);
    if (!k) throw new Error(`server key ${p} is missing; start Latchkey with \`npm start\` (or \`latchkey migrate\`) once to create it`);
    return k;
  };
  return {
    signerPublicKey: get('signer'),
    notarizerPublicKey: get('notarizer'),
    otpVerifierPublicKey: get('otp_verifier'),
    tlsFetcherPublicKey: get('tls_fetcher'),
    oidcIssuerPublicKey: get('oidc_issuer'),
  };
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

/**
 * Creates whichever server keys are missing and returns all public halves. `entropy` is the
 * CSPRNG except in a fixed-seed test installation.
 */
export async function ensureServerKeys(store: TInstallationStore, vault: TKeyVault, entropy: TInstallEntropy = randomEntropy): Promise<TServerPublicKeys> {
  await store.transaction(async (tx) => {
    await tx.system.lockForTransaction(INSTALLATION_LOCK);
    const have = new Set((await tx.system.serverKeys()).map((k) => k.purpose));
    for (const purpose of SERVER_KEY_PURPOSES) {
      if (have.has(purpose)) continue;
      const kp = entropy.p256KeyPair(`server-key:${purpose}`);
      await tx.system.addServerKey({ purpose, publicKey: kp.publicKeyUncompressed, sealedPrivateKey: vault.seal(Buffer.from(kp.privateKey, 'hex'), serverKeyAad(purpose)) });
    }
  });
  return loadServerPublicKeys(store);
}
