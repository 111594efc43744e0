/**
 * get_organization — the organization's data: users with their credentials and tags, root quorum,
 * features, policies, wallets, private keys, and the user and private key tags. Invitations are
 * not implemented; the list is always empty.
 */
import { ZGetOrganizationRequestSchema, type TFeature, type TGetOrganizationRequest, type TGetOrganizationResponse } from '@latchkey/domain';
import { privateKeyTagToWire, privateKeyToWire, userTagToWire, walletToWire } from '../engine/serialize.js';
import type { TQueryDefinition } from './query-definition.js';
import { policyToWire } from './policies.js';
import { wireUsers } from '../engine/serialize.js';

export const getOrganization: TQueryDefinition<TGetOrganizationRequest, TGetOrganizationResponse> = {
  path: 'get_organization',
  request: ZGetOrganizationRequestSchema,
  async handle(ctx) {
    const org = ctx.organization;
    const [users, userTags, quorum, features, wallets, privateKeys, privateKeyTags, policies] = await Promise.all([
      ctx.store.users.listByOrganization(org.id).then((list) => wireUsers(ctx.store, org.id, list, true)),
      ctx.store.users.listTags(org.id),
      ctx.store.organizations.rootQuorumMembers(org.id),
      ctx.store.organizations.features(org.id),
      ctx.store.wallets.list(org.id),
      ctx.store.privateKeys.list(org.id),
      ctx.store.privateKeys.listTags(org.id),
      ctx.store.policies.list(org.id),
    ]);
    return {
      organizationData: {
        organizationId: org.id,
        name: org.name,
        users,
        policies: policies.map(policyToWire),
        privateKeys: privateKeys.map(privateKeyToWire),
        invitations: [],
        tags: [...userTags.map(userTagToWire), ...privateKeyTags.map(privateKeyTagToWire)],
        rootQuorum: { threshold: org.rootQuorumThreshold, userIds: quorum.map((m) => m.userId) },
        features: features.map((f) => ({ name: f.name as TFeature['name'], value: f.value })),
        wallets: wallets.map(walletToWire),
        smartContractInterfaceReferences: [],
      },
    };
  },
};
