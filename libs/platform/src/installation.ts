/**
 * The installation's one-time steps, run by the launcher at every start (each is idempotent and
 * serialised across processes by an advisory lock):
 *  - the vault check: the master key must be the one the database was sealed with;
 *  - the server's own P-256 keys (bundle signer, session notarizer, OTP verifier, TLS fetcher,
 *    OIDC issuer), sealed;
 *  - the first root organization, its root user and a P-256 API key.
 * Each takes either store: the launcher passes `installationStore` (plain SQL: a first start
 * never loads Prisma), the CLI's other commands their Prisma store.
 */
import { randomEntropy, type TInstallEntropy, type TKeyVault } from '@latchkey/crypto';
import type { TInstallationStore } from '@latchkey/persistence';
import { INSTALLATION_LOCK as INSTALL_LOCK, createRootOrganization, type TCreatedOrganization } from '@latchkey/activity-engine';
export { ensureServerKeys, createRootOrganization, type TCreatedOrganization, type TNewRootOrganization } from '@latchkey/activity-engine';

const VAULT_KEY_ID = 'vault_key_id';
const BOOTSTRAP_ORG = 'bootstrap_organization_id';

/**
 * Records the master key's id on first start and refuses a different key afterwards, so data
 * sealed under one key is never mixed with data sealed under another.
 * @throws Error when the database was sealed with another master key.
 */
export async function assertVaultKey(store: TInstallationStore, vault: TKeyVault): Promise<void> {
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



export interface TBootstrapResult extends TCreatedOrganization {
  /** True only on the start that created the organization. */
  created: boolean;
  apiPublicKey: string;
  /** Present only when Latchkey generated the key pair (no LATCHKEY_ROOT_API_PUBLIC_KEY). */
  apiPrivateKey?: string;
}

/**
 * Creates the first root organization unless one was created before. `entropy` (default the
 * CSPRNG) gives its ids and, when no public key is supplied, its API key pair.
 * @throws Error when `rootApiPublicKey` is not a compressed P-256 key.
 */
export async function bootstrapInstallation(store: TInstallationStore, opts: { rootApiPublicKey?: string | undefined; entropy?: TInstallEntropy }): Promise<TBootstrapResult> {
  const entropy = opts.entropy ?? randomEntropy;
  return store.transaction(async (tx) => {
    await tx.system.lockForTransaction(INSTALL_LOCK);
    const known = await tx.system.getState(BOOTSTRAP_ORG);
    if (known) {
      const [user] = await tx.users.listByOrganization(known);
      const [key] = await tx.credentials.listApiKeysByOrganization(known);
      return { created: false, organizationId: known, userId: user?.id ?? '', apiKeyId: key?.id ?? '', apiPublicKey: key?.publicKey ?? '' };
    }
    const generated = opts.rootApiPublicKey ? undefined : entropy.p256KeyPair('root-api-key');
    const apiPublicKey = opts.rootApiPublicKey ?? generated!.publicKey;
    const ids = await createRootOrganization(tx, { organizationName: 'Root organization', userName: 'root', apiPublicKey, apiKeyName: 'bootstrap' }, entropy);
    await tx.system.setState(BOOTSTRAP_ORG, ids.organizationId);
    return { created: true, ...ids, apiPublicKey, ...(generated ? { apiPrivateKey: generated.privateKey } : {}) };
  });
}

