/**
 * A root organization: one root user (quorum threshold 1) holding one P-256 API key. Created by the
 * installation's first start and by `latchkey org create`; sub-organizations are created by the
 * create_sub_organization activity instead.
 */
import { decompressP256PublicKey, randomEntropy, type TInstallEntropy } from '@latchkey/crypto';
import type { TInstallationRepositories } from '@latchkey/persistence';

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

/**
 * @param entropy where the ids come from: the CSPRNG, except in a fixed-seed test installation
 * @throws Error when `apiPublicKey` is not a compressed P-256 key
 */
export async function createRootOrganization(tx: Pick<TInstallationRepositories, 'organizations' | 'users' | 'credentials'>, o: TNewRootOrganization, entropy: TInstallEntropy = randomEntropy): Promise<TCreatedOrganization> {
  decompressP256PublicKey(o.apiPublicKey); // refuses anything but a valid compressed P-256 point
  const organizationId = entropy.id('root-organization');
  const userId = entropy.id('root-user');
  const apiKeyId = entropy.id('root-api-key');
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

