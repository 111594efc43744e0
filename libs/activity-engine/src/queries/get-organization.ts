/**
 * get_organization — the organization's data: users with their credentials, root quorum,
 * features, wallets, private keys and private key tags. Policies, user tags and invitations are listed once the
 * activities that create them exist (issues #4–#5); until then they are always empty.
 */
import {
  toTimestamp,
  ZGetOrganizationRequestSchema,
  type TApiKey,
  type TAuthenticator,
  type TFeature,
  type TGetOrganizationRequest,
  type TGetOrganizationResponse,
  type TUser,
} from '@latchkey/domain';
import { privateKeyTagToWire, privateKeyToWire, walletToWire } from '../engine/serialize.js';
import type { TQueryDefinition } from './query-definition.js';

export const getOrganization: TQueryDefinition<TGetOrganizationRequest, TGetOrganizationResponse> = {
  path: 'get_organization',
  request: ZGetOrganizationRequestSchema,
  async handle(ctx) {
    const org = ctx.organization;
    const [users, apiKeys, authenticators, tagsByUser, quorum, features, wallets, privateKeys, privateKeyTags] = await Promise.all([
      ctx.store.users.listByOrganization(org.id),
      ctx.store.credentials.listApiKeysByOrganization(org.id),
      ctx.store.credentials.listAuthenticatorsByOrganization(org.id),
      ctx.store.users.tagIdsByUser(org.id),
      ctx.store.organizations.rootQuorumMembers(org.id),
      ctx.store.organizations.features(org.id),
      ctx.store.wallets.list(org.id),
      ctx.store.privateKeys.list(org.id),
      ctx.store.privateKeys.listTags(org.id),
    ]);
    const wireUsers: TUser[] = users.map((u) => ({
      userId: u.id,
      userName: u.userName,
      ...(u.userEmail ? { userEmail: u.userEmail } : {}),
      ...(u.userPhoneNumber ? { userPhoneNumber: u.userPhoneNumber } : {}),
      apiKeys: apiKeys
        .filter((k) => k.userId === u.id)
        .map(
          (k): TApiKey => ({
            credential: { publicKey: k.publicKey, type: k.credentialType as TApiKey['credential']['type'] },
            apiKeyId: k.id,
            apiKeyName: k.name,
            createdAt: toTimestamp(k.createdAt),
            updatedAt: toTimestamp(k.updatedAt),
            ...(k.expiresAt ? { expirationSeconds: String(Math.max(0, Math.round((k.expiresAt.getTime() - k.createdAt.getTime()) / 1000))) } : {}),
          }),
        ),
      authenticators: authenticators
        .filter((a) => a.userId === u.id)
        .map(
          (a): TAuthenticator => ({
            transports: a.transports as TAuthenticator['transports'],
            attestationType: a.attestationType,
            aaguid: a.aaguid,
            credentialId: a.credentialId,
            model: a.model,
            credential: { publicKey: a.publicKey, type: a.credentialType as TAuthenticator['credential']['type'] },
            authenticatorId: a.id,
            authenticatorName: a.name,
            createdAt: toTimestamp(a.createdAt),
            updatedAt: toTimestamp(a.updatedAt),
          }),
        ),
      userTags: tagsByUser.get(u.id) ?? [],
      oauthProviders: [],
      createdAt: toTimestamp(u.createdAt),
      updatedAt: toTimestamp(u.updatedAt),
      mfaPolicies: [],
    }));
    return {
      organizationData: {
        organizationId: org.id,
        name: org.name,
        users: wireUsers,
        policies: [],
        privateKeys: privateKeys.map(privateKeyToWire),
        invitations: [],
        tags: privateKeyTags.map(privateKeyTagToWire),
        rootQuorum: { threshold: org.rootQuorumThreshold, userIds: quorum.map((m) => m.userId) },
        features: features.map((f) => ({ name: f.name as TFeature['name'], value: f.value })),
        wallets: wallets.map(walletToWire),
        smartContractInterfaceReferences: [],
      },
    };
  },
};
