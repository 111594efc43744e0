/**
 * create_sub_organization (V7, V8) — an end user's own organization under the signer's: root users
 * with their API keys, passkeys and OAuth providers, the root quorum, an optional wallet, and the
 * login flows it allows (e-mail auth, e-mail recovery, SMS and OTP e-mail auth are on unless a
 * `disable*` flag turns them off). A sign-up may carry an OTP `verificationToken` (and the
 * `clientSignature` its key made), spent here so it serves one sign-up; the root users holding its
 * contact have it verified (list_verified_suborgs).
 */
import { newId } from '@latchkey/crypto';
import {
  AppError,
  ZCreateSubOrganizationIntentSchema,
  type TCreateSubOrganizationIntent,
  type TCreateSubOrganizationResult,
  type TFeatureName, CREATE_SUB_ORGANIZATION_ACTIVITY } from '@latchkey/domain';
import type { TActivityContext, TActivityDefinition } from '../../engine/activity-definition.js';
import { freshWalletSecret, storeNewWallet, validateAccountParams } from '../../keys/wallet-accounts.js';
import { assertApiKeysWellFormed } from '../../identity/add-user-credentials.js';
import { checkCredentials, writeCredentials, type TCheckedCredentials } from '../../identity/add-user-credentials.js';
import { verifySignupToken } from '../../identity/verification-tokens.js';
import { verifiedContactOf, type TVerifiedContact } from '../../engine/principal.js';

/** The flows a new sub-organization allows, each unless its flag says otherwise. */
const LOGIN_FEATURES: readonly [keyof TCreateSubOrganizationIntent, TFeatureName][] = [
  ['disableEmailAuth', 'FEATURE_NAME_EMAIL_AUTH'],
  ['disableEmailRecovery', 'FEATURE_NAME_EMAIL_RECOVERY'],
  ['disableSmsAuth', 'FEATURE_NAME_SMS_AUTH'],
  ['disableOtpEmailAuth', 'FEATURE_NAME_OTP_EMAIL_AUTH'],
];

function validate(p: TCreateSubOrganizationIntent): void {
  if (p.rootQuorumThreshold > p.rootUsers.length) {
    throw new AppError('BAD_REQUEST', `rootQuorumThreshold: ${p.rootQuorumThreshold} is more than the ${p.rootUsers.length} root user(s)`, { field: 'rootQuorumThreshold' });
  }
  if (p.wallet) validateAccountParams(p.wallet.accounts);
  // One organization cannot hold the same API key twice (a stamp must name one user).
  assertApiKeysWellFormed(p.rootUsers.flatMap((u, i) => u.apiKeys.map((params, j) => ({ path: `rootUsers[${i}].apiKeys[${j}]`, params }))));
  if (p.clientSignature && !p.verificationToken) throw new AppError('BAD_REQUEST', 'clientSignature: only meaningful with a verificationToken', { field: 'clientSignature' });
}

async function handle(ctx: TActivityContext, p: TCreateSubOrganizationIntent): Promise<TCreateSubOrganizationResult> {
  const parent = await ctx.tx.organizations.findById(ctx.organizationId);
  if (!parent) throw new AppError('ORGANIZATION_NOT_FOUND', `organization not found: ${ctx.organizationId}`);
  if (parent.parentOrganizationId) throw new AppError('BAD_REQUEST', 'a sub-organization cannot have sub-organizations of its own');

  // The root users whose contact the token proves: recorded as verified (list_verified_suborgs).
  let proves: (u: TCreateSubOrganizationIntent['rootUsers'][number]) => boolean = () => false;
  let verified: TVerifiedContact | undefined;
  if (p.verificationToken) {
    const token = await verifySignupToken(ctx, p.verificationToken, p.clientSignature, p);
    verified = verifiedContactOf(token);
    proves = (u) => (token.verificationType === 'OTP_TYPE_EMAIL' ? u.userEmail?.toLowerCase() === token.contact.toLowerCase() : u.userPhoneNumber === token.contact);
    if (!p.rootUsers.some(proves)) throw new AppError('BAD_REQUEST', 'verificationToken: its contact is not the e-mail or phone number of any root user', { field: 'verificationToken' });
  }

  // Every credential is checked before anything is written.
  const checked: TCheckedCredentials[] = [];
  for (const [i, u] of p.rootUsers.entries()) {
    checked.push(await checkCredentials(ctx, u, (kind, j) => `rootUsers[${i}].${kind}[${j}]`, [ctx.organizationId]));
  }

  const subOrganizationId = newId();
  await ctx.tx.organizations.create({ id: subOrganizationId, name: p.subOrganizationName, parentOrganizationId: ctx.organizationId, rootQuorumThreshold: p.rootQuorumThreshold });
  const rootUserIds: string[] = [];
  for (const [i, u] of p.rootUsers.entries()) {
    const userId = newId();
    await ctx.tx.users.create({ id: userId, organizationId: subOrganizationId, userName: u.userName, userEmail: u.userEmail ?? null, userPhoneNumber: u.userPhoneNumber ?? null });
    await writeCredentials(ctx.tx, subOrganizationId, userId, checked[i]!);
    if (verified && proves(u)) await ctx.tx.logins.markContactVerified({ userId, organizationId: subOrganizationId, ...verified, at: ctx.now });
    await ctx.tx.notifyChange('credential-added', userId);
    rootUserIds.push(userId);
  }
  await ctx.tx.organizations.addRootQuorumMembers(subOrganizationId, rootUserIds);
  for (const [flag, feature] of LOGIN_FEATURES) {
    if (p[flag] !== true) await ctx.tx.organizations.setFeature(subOrganizationId, feature, '', ctx.now);
  }
  const wallet = p.wallet
    ? await storeNewWallet({ ...ctx, organizationId: subOrganizationId }, { name: p.wallet.walletName, ...(await freshWalletSecret(ctx.services, p.wallet.mnemonicLength)), accounts: p.wallet.accounts, imported: false })
    : undefined;
  return { subOrganizationId, ...(wallet ? { wallet } : {}), rootUserIds };
}

export const createSubOrganization: TActivityDefinition<TCreateSubOrganizationIntent, TCreateSubOrganizationResult> = {
  ...CREATE_SUB_ORGANIZATION_ACTIVITY,
  onFailure: 'reject',
  params: ZCreateSubOrganizationIntentSchema,
  validate,
  handle,
};
