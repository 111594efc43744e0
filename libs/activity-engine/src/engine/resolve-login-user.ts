/**
 * Finding who logs in, for the flows that name a person rather than a credential: an e-mail
 * address or phone number (OTP, e-mail auth, recovery) or an OIDC identity (iss, sub, aud). The
 * user is looked for in the target organization first, then in its sub-organizations (an app's
 * backend or the auth proxy targets the parent). More than one sub-organization holding the same
 * identity is CREDENTIAL_CONFLICT, as in Turnkey.
 */
import { AppError } from '@latchkey/domain';
import type { TRepositories, User } from '@latchkey/persistence';

export interface TLoginUser {
  organizationId: string;
  userId: string;
  user: User;
}

function single(users: User[], what: string, where: string): TLoginUser | undefined {
  const orgs = new Set(users.map((u) => u.organizationId));
  if (orgs.size > 1) throw new AppError('CREDENTIAL_CONFLICT', `more than one suborg associated with this ${what}`, { credential: what });
  if (users.length > 1) throw new AppError('BAD_REQUEST', `more than one user of organization ${where} has this ${what}; log in with a credential instead`);
  const u = users[0];
  return u ? { organizationId: u.organizationId, userId: u.id, user: u } : undefined;
}

/** The users a login by this contact would find: the target's own first, else its sub-organizations'. */
async function contactHolders(tx: TRepositories, organizationId: string, otpType: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS', contact: string): Promise<{ users: User[]; where: string }> {
  const own = await tx.logins.usersByContact([organizationId], otpType, contact);
  if (own.length > 0) return { users: own, where: organizationId };
  const subs = await tx.logins.subOrganizationIds(organizationId);
  return { users: subs.length > 0 ? await tx.logins.usersByContact(subs, otpType, contact) : [], where: 'its sub-organization' };
}

/** @throws AppError NOT_FOUND (nobody), CREDENTIAL_CONFLICT (several sub-organizations) */
export async function resolveUserByContact(
  tx: TRepositories,
  organizationId: string,
  otpType: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS',
  contact: string,
): Promise<TLoginUser> {
  const what = otpType === 'OTP_TYPE_EMAIL' ? 'e-mail address' : 'phone number';
  const { users, where } = await contactHolders(tx, organizationId, otpType, contact);
  const found = single(users, what, where);
  if (found) return found;
  throw new AppError('NOT_FOUND', `no user with this ${what} in organization ${organizationId} or its sub-organizations`);
}

/**
 * The organizations a login by this contact would land in, without resolving it to one user: the
 * target's own users first, else its sub-organizations'. Empty for a contact nobody has (a
 * sign-up). For checks made before the login (init_otp), where a conflict is not yet an error.
 */
export async function organizationsHoldingContact(
  tx: TRepositories,
  organizationId: string,
  otpType: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS',
  contact: string,
): Promise<string[]> {
  return [...new Set((await contactHolders(tx, organizationId, otpType, contact)).users.map((u) => u.organizationId))];
}

/** The user whose OAuth provider matches the token's issuer, subject and audience. */
export async function resolveUserByOidc(tx: TRepositories, organizationId: string, claims: { iss: string; sub: string; aud: string }): Promise<TLoginUser> {
  /** Providers for (iss, sub); `otherAudiences` counts those that differ only by audience. */
  let otherAudiences = 0;
  const match = async (orgIds: string[]) => {
    const bySubject = await tx.logins.oauthProvidersBySubject(orgIds, claims.iss, claims.sub);
    const same = bySubject.filter((p) => p.audience === claims.aud);
    otherAudiences += bySubject.length - same.length;
    return same;
  };
  let providers = await match([organizationId]);
  if (providers.length === 0) {
    const subs = await tx.logins.subOrganizationIds(organizationId);
    if (subs.length > 0) providers = await match(subs);
  }
  if (providers.length === 0 && otherAudiences > 0) {
    throw new AppError(
      'NOT_FOUND',
      `no user with an OAuth provider for this token: its audience ${claims.aud} matches no OAuth provider of issuer ${claims.iss} and this subject in organization ${organizationId} or its sub-organizations (the token was issued for another app's client ID)`,
      { audience: claims.aud },
    );
  }
  if (new Set(providers.map((p) => p.organizationId)).size > 1) throw new AppError('CREDENTIAL_CONFLICT', 'more than one suborg associated with this OIDC token', { credential: 'OIDC token' });
  if (new Set(providers.map((p) => p.userId)).size > 1) throw new AppError('BAD_REQUEST', 'more than one user has this OIDC identity; remove the duplicate OAuth provider');
  const p = providers[0];
  const user = p ? await tx.users.findById(p.organizationId, p.userId) : null;
  if (!p || !user) throw new AppError('NOT_FOUND', `no user with an OAuth provider for issuer ${claims.iss}, this subject and audience ${claims.aud} in organization ${organizationId} or its sub-organizations`, { audience: claims.aud });
  return { organizationId: p.organizationId, userId: user.id, user };
}

/** The login feature that gates an OTP flow by the contact's kind. */
export const otpFeature = (otpType: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS') => (otpType === 'OTP_TYPE_EMAIL' ? 'FEATURE_NAME_OTP_EMAIL_AUTH' : 'FEATURE_NAME_SMS_AUTH');

/**
 * Whether a login flow is switched on for the organization the user lives in. Sub-organizations
 * get their flags at creation (the `disable*` parameters); a top-level organization decides with
 * set_organization_feature, and its own users may always use the flows.
 * @throws AppError REQUEST_NOT_AUTHORIZED naming the feature
 */
export async function assertLoginFeature(tx: TRepositories, organizationId: string, feature: string): Promise<void> {
  const org = await tx.organizations.findById(organizationId);
  if (!org) throw new AppError('ORGANIZATION_NOT_FOUND', `organization not found: ${organizationId}`);
  if (!org.parentOrganizationId) return;
  const features = await tx.organizations.features(organizationId);
  if (!features.some((f) => f.name === feature)) {
    throw new AppError('REQUEST_NOT_AUTHORIZED', `request not authorized: ${feature} is disabled for organization ${organizationId}`, { feature });
  }
}
