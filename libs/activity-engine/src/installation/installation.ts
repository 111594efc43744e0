/**
 * The installation's one-time steps, run by the launcher at every start (each is idempotent and
 * serialised across processes by an advisory lock):
 *  - the vault check: the master key must be the one the database was sealed with;
 *  - the server's own P-256 keys (bundle signer, session notarizer, OTP verifier, TLS fetcher,
 *    OIDC issuer), sealed;
 *  - the first root organization, its root user and a P-256 API key.
 */
import { decompressP256PublicKey, generateP256KeyPair, newId, type TKeyVault } from '@latchkey/crypto';
import type { TRepositories, TStore } from '@latchkey/persistence';

/**
 * `tls_fetcher`: the key clients encrypt OAuth 2.0 client secrets to (`encryptOauth2ClientSecret`);
 * `oidc_issuer`: signs the OIDC tokens oauth2_authenticate issues (published as the JWKS).
 */
export const SERVER_KEY_PURPOSES = ['signer', 'notarizer', 'otp_verifier', 'tls_fetcher', 'oidc_issuer'] as const;
export type TServerKeyPurpose = (typeof SERVER_KEY_PURPOSES)[number];

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

const INSTALL_LOCK = 7_245_002;
const VAULT_KEY_ID = 'vault_key_id';
const BOOTSTRAP_ORG = 'bootstrap_organization_id';

export const serverKeyAad = (purpose: string) => `server-key:${purpose}`;

/**
 * Records the master key's id on first start and refuses a different key afterwards, so data
 * sealed under one key is never mixed with data sealed under another.
 * @throws Error when the database was sealed with another master key.
 */
export async function assertVaultKey(store: TStore, vault: TKeyVault): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.system.lockForTransaction(INSTALL_LOCK);
    const known = await tx.system.getState(VAULT_KEY_ID);
    if (known === null) await tx.system.setState(VAULT_KEY_ID, vault.keyId);
    else if (known !== vault.keyId) {
      throw new Error(
        `the master key (id ${vault.keyId}) is not the one this database was sealed with (id ${known}); set LATCHKEY_MASTER_KEY (or $LATCHKEY_DATA_DIR/master.key) to the original key`,
      );
    }
  });
}

/** Creates whichever server keys are missing and returns all public halves. */
export async function ensureServerKeys(store: TStore, vault: TKeyVault): Promise<TServerPublicKeys> {
  await store.transaction(async (tx) => {
    await tx.system.lockForTransaction(INSTALL_LOCK);
    const have = new Set((await tx.system.serverKeys()).map((k) => k.purpose));
    for (const purpose of SERVER_KEY_PURPOSES) {
      if (have.has(purpose)) continue;
      const kp = generateP256KeyPair();
      await tx.system.addServerKey({ purpose, publicKey: kp.publicKeyUncompressed, sealedPrivateKey: vault.seal(Buffer.from(kp.privateKey, 'hex'), serverKeyAad(purpose)) });
    }
  });
  return loadServerPublicKeys(store);
}

/** @throws Error when a server key is missing (the launcher creates them). */
export async function loadServerPublicKeys(store: TStore | TRepositories): Promise<TServerPublicKeys> {
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

export interface TNewRootOrganization {
  organizationName: string;
  userName: string;
  userEmail?: string;
  /** Compressed P-256 public key, hex. */
  apiPublicKey: string;
  apiKeyName?: string;
}

export interface TCreatedOrganization {
  organizationId: string;
  userId: string;
  apiKeyId: string;
}

/** Creates a root organization with one root user (quorum threshold 1) holding one P-256 API key. */
export async function createRootOrganization(tx: TRepositories, o: TNewRootOrganization): Promise<TCreatedOrganization> {
  decompressP256PublicKey(o.apiPublicKey); // refuses anything but a valid compressed P-256 point
  const organizationId = newId();
  const userId = newId();
  const apiKeyId = newId();
  await tx.organizations.create({ id: organizationId, name: o.organizationName, rootQuorumThreshold: 1 });
  await tx.users.create({ id: userId, organizationId, userName: o.userName, userEmail: o.userEmail ?? null });
  await tx.organizations.addRootQuorumMembers(organizationId, [userId]);
  await tx.credentials.createApiKey({
    id: apiKeyId,
    organizationId,
    userId,
    name: o.apiKeyName ?? 'root',
    publicKey: o.apiPublicKey.toLowerCase(),
    curve: 'API_KEY_CURVE_P256',
    credentialType: 'CREDENTIAL_TYPE_API_KEY_P256',
  });
  return { organizationId, userId, apiKeyId };
}

export interface TBootstrapResult extends TCreatedOrganization {
  /** True only on the start that created the organization. */
  created: boolean;
  apiPublicKey: string;
  /** Present only when Latchkey generated the key pair (no LATCHKEY_ROOT_API_PUBLIC_KEY). */
  apiPrivateKey?: string;
}

/**
 * Creates the first root organization unless one was created before.
 * @throws Error when `rootApiPublicKey` is not a compressed P-256 key.
 */
export async function bootstrapInstallation(store: TStore, opts: { rootApiPublicKey?: string | undefined }): Promise<TBootstrapResult> {
  return store.transaction(async (tx) => {
    await tx.system.lockForTransaction(INSTALL_LOCK);
    const known = await tx.system.getState(BOOTSTRAP_ORG);
    if (known) {
      const [user] = await tx.users.listByOrganization(known);
      const [key] = await tx.credentials.listApiKeysByOrganization(known);
      return { created: false, organizationId: known, userId: user?.id ?? '', apiKeyId: key?.id ?? '', apiPublicKey: key?.publicKey ?? '' };
    }
    const generated = opts.rootApiPublicKey ? undefined : generateP256KeyPair();
    const apiPublicKey = opts.rootApiPublicKey ?? generated!.publicKey;
    const ids = await createRootOrganization(tx, { organizationName: 'Root organization', userName: 'root', apiPublicKey, apiKeyName: 'bootstrap' });
    await tx.system.setState(BOOTSTRAP_ORG, ids.organizationId);
    return { created: true, ...ids, apiPublicKey, ...(generated ? { apiPrivateKey: generated.privateKey } : {}) };
  });
}

