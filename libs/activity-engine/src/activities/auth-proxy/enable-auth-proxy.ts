/**
 * enable_auth_proxy — creates the organization's proxy user (not a root user) with a new P-256 API
 * key and a policy allowing it exactly the login activities it forwards; the private key is sealed
 * in the key vault (never returned, never logged). The config keeps its id across a disable and a
 * re-enable (frontends keep their `authProxyConfigId`); the key is new each time.
 */
import { generateP256KeyPair, newId } from '@latchkey/crypto';
import {
  AppError,
  authProxyKeyAad,
  ENABLE_AUTH_PROXY_ACTIVITY,
  ZEnableAuthProxyIntentSchema,
  type TEnableAuthProxyIntent,
  type TEnableAuthProxyResult,
} from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { proxyPolicy } from './auth-proxy-shared.js';

export const enableAuthProxy: TActivityDefinition<TEnableAuthProxyIntent, TEnableAuthProxyResult> = {
  ...ENABLE_AUTH_PROXY_ACTIVITY,
  onFailure: 'reject',
  params: ZEnableAuthProxyIntentSchema,
  async handle(ctx) {
    const org = await ctx.tx.organizations.findById(ctx.organizationId);
    if (org?.parentOrganizationId) throw new AppError('BAD_REQUEST', 'the auth proxy is enabled on the parent organization, not on a sub-organization');
    const existing = await ctx.tx.authProxyConfigs.findByOrganization(ctx.organizationId);
    if (existing?.enabled) {
      throw new AppError('BAD_REQUEST', `the auth proxy is already enabled (config ${existing.id}); use update_auth_proxy_config to change it`, { configId: existing.id });
    }
    const configId = existing?.id ?? newId();
    let proxyUserId = existing?.proxyUserId ?? null;
    if (!proxyUserId || !(await ctx.tx.users.findById(ctx.organizationId, proxyUserId))) {
      proxyUserId = newId();
      await ctx.tx.users.create({ id: proxyUserId, organizationId: ctx.organizationId, userName: `Auth Proxy ${configId}`, createdAt: ctx.now });
    }
    let proxyPolicyId = existing?.proxyPolicyId ?? null;
    if (!proxyPolicyId || !(await ctx.tx.policies.findById(ctx.organizationId, proxyPolicyId))) {
      proxyPolicyId = newId();
      await ctx.tx.policies.create({
        id: proxyPolicyId,
        organizationId: ctx.organizationId,
        name: `Auth proxy ${configId}`,
        effect: 'EFFECT_ALLOW',
        ...proxyPolicy(proxyUserId),
        notes: 'Created by enable_auth_proxy: the proxy user may run the login activities the auth proxy forwards.',
        createdAt: ctx.now,
      });
    }
    const kp = generateP256KeyPair();
    const secret = Buffer.from(kp.privateKey, 'hex');
    const sealedProxyPrivateKey = ctx.vault.seal(secret, authProxyKeyAad(configId));
    secret.fill(0);
    const proxyApiKeyId = newId();
    await ctx.tx.credentials.createApiKey({
      id: proxyApiKeyId,
      organizationId: ctx.organizationId,
      userId: proxyUserId,
      name: `auth proxy ${configId}`,
      publicKey: kp.publicKey,
      curve: 'API_KEY_CURVE_P256',
      credentialType: 'CREDENTIAL_TYPE_API_KEY_P256',
      createdAt: ctx.now,
    });
    await ctx.tx.authProxyConfigs.enable({ id: configId, organizationId: ctx.organizationId, proxyUserId, proxyApiKeyId, sealedProxyPrivateKey, proxyPolicyId, settings: existing?.settings ?? {}, now: ctx.now });
    await ctx.tx.notifyChange('credential-added', proxyUserId);
    return { userId: proxyUserId, configId };
  },
};
