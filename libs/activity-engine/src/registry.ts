/**
 * Every activity kind Latchkey performs, in one explicit list. A new kind is a folder under
 * `activities/` and one line here; the path, the accepted types and the intent/result keys all
 * come from its definition.
 */
import { createPrivateKeys } from './activities/private-keys/create-private-keys.js';
import { deletePrivateKeys } from './activities/private-keys/delete-private-keys.js';
import { createPrivateKeyTag } from './activities/private-keys/create-private-key-tag.js';
import { deletePrivateKeyTags } from './activities/private-keys/delete-private-key-tags.js';
import { updatePrivateKeyTag } from './activities/private-keys/update-private-key-tag.js';
import { exportPrivateKey } from './activities/private-keys/export-private-key.js';
import { exportWallet } from './activities/wallets/export-wallet.js';
import { exportWalletAccount } from './activities/wallets/export-wallet-account.js';
import { importPrivateKey } from './activities/private-keys/import-private-key.js';
import { importWallet } from './activities/wallets/import-wallet.js';
import { initImportPrivateKey } from './activities/private-keys/init-import-private-key.js';
import { initImportWallet } from './activities/wallets/init-import-wallet.js';
import { signRawPayload } from './activities/signing/sign-raw-payload.js';
import { signRawPayloads } from './activities/signing/sign-raw-payloads.js';
import { signTransaction } from './activities/signing/sign-transaction.js';
import { createWalletAccounts } from './activities/wallets/create-wallet-accounts.js';
import { createWallet } from './activities/wallets/create-wallet.js';
import { deleteWalletAccounts } from './activities/wallets/delete-wallet-accounts.js';
import { deleteWallets } from './activities/wallets/delete-wallets.js';
import { updateWallet } from './activities/wallets/update-wallet.js';
import { createUsers } from './activities/users/create-users.js';
import { deleteUsers } from './activities/users/delete-users.js';
import { updateUser } from './activities/users/update-user.js';
import { createUserTag } from './activities/users/create-user-tag.js';
import { deleteUserTags } from './activities/users/delete-user-tags.js';
import { updateUserTag } from './activities/users/update-user-tag.js';
import { createApiKeys } from './activities/credentials/create-api-keys.js';
import { deleteApiKeys } from './activities/credentials/delete-api-keys.js';
import { createSubOrganization } from './activities/organizations/create-sub-organization.js';
import { deleteSubOrganization } from './activities/organizations/delete-sub-organization.js';
import { removeOrganizationFeature } from './activities/organizations/remove-organization-feature.js';
import { setOrganizationFeature } from './activities/organizations/set-organization-feature.js';
import { stampLogin } from './activities/logins/sessions/stamp-login.js';
import { createReadWriteSession } from './activities/logins/sessions/create-read-write-session.js';
import { initOtp } from './activities/logins/otp/init-otp.js';
import { verifyOtp } from './activities/logins/otp/verify-otp.js';
import { otpLogin } from './activities/logins/otp/otp-login.js';
import { initOtpAuth } from './activities/logins/otp/init-otp-auth.js';
import { otpAuth } from './activities/logins/otp/otp-auth.js';
import { oauth } from './activities/logins/oauth/oauth.js';
import { oauthLogin } from './activities/logins/oauth/oauth-login.js';
import { emailAuth } from './activities/logins/email-auth/email-auth.js';
import { initUserEmailRecovery } from './activities/logins/recovery/init-user-email-recovery.js';
import { recoverUser } from './activities/logins/recovery/recover-user.js';
import { createAuthenticators } from './activities/credentials/create-authenticators.js';
import { deleteAuthenticators } from './activities/credentials/delete-authenticators.js';
import { createOauthProviders } from './activities/credentials/create-oauth-providers.js';
import { deleteOauthProviders } from './activities/credentials/delete-oauth-providers.js';
import { createPolicies } from './activities/policies/create-policies.js';
import { createPolicy } from './activities/policies/create-policy.js';
import { deletePolicies } from './activities/policies/delete-policies.js';
import { deletePolicy } from './activities/policies/delete-policy.js';
import { updatePolicy } from './activities/policies/update-policy.js';
import { updateRootQuorum } from './activities/organizations/update-root-quorum.js';
import { createOauth2Credential } from './activities/oauth2/create-oauth2-credential.js';
import { deleteOauth2Credential } from './activities/oauth2/delete-oauth2-credential.js';
import { updateOauth2Credential } from './activities/oauth2/update-oauth2-credential.js';
import { oauth2Authenticate } from './activities/oauth2/oauth2-authenticate.js';
import type { TActivityVersion, TAnyActivityDefinition } from './engine/activity-definition.js';

export const ACTIVITY_DEFINITIONS: readonly TAnyActivityDefinition[] = [
  createWallet,
  createWalletAccounts,
  updateWallet,
  deleteWallets,
  deleteWalletAccounts,
  createPrivateKeys,
  deletePrivateKeys,
  createPrivateKeyTag,
  updatePrivateKeyTag,
  deletePrivateKeyTags,
  signRawPayload,
  signRawPayloads,
  signTransaction,
  exportWallet,
  exportWalletAccount,
  exportPrivateKey,
  initImportWallet,
  importWallet,
  initImportPrivateKey,
  importPrivateKey,
  createUsers,
  updateUser,
  deleteUsers,
  createUserTag,
  updateUserTag,
  deleteUserTags,
  createApiKeys,
  deleteApiKeys,
  createSubOrganization,
  deleteSubOrganization,
  setOrganizationFeature,
  removeOrganizationFeature,
  stampLogin,
  createReadWriteSession,
  initOtp,
  verifyOtp,
  otpLogin,
  initOtpAuth,
  otpAuth,
  oauthLogin,
  oauth,
  emailAuth,
  initUserEmailRecovery,
  recoverUser,
  createAuthenticators,
  deleteAuthenticators,
  createOauthProviders,
  deleteOauthProviders,
  createOauth2Credential,
  updateOauth2Credential,
  deleteOauth2Credential,
  oauth2Authenticate,
  createPolicy,
  createPolicies,
  updatePolicy,
  deletePolicy,
  deletePolicies,
  updateRootQuorum,
];

export interface TActivityRegistry {
  byPath(path: string): TAnyActivityDefinition | undefined;
  version(def: TAnyActivityDefinition, type: string): TActivityVersion | undefined;
  /** Intent/result keys of any known type (for serializing stored activities). */
  versionOfType(type: string): TActivityVersion | undefined;
  /** The definition that accepts a type (to finish a stored activity after consensus). */
  byType(type: string): TAnyActivityDefinition | undefined;
}

/** Builds the lookup tables, refusing duplicate paths or types (a programming error). */
export function createActivityRegistry(defs: readonly TAnyActivityDefinition[] = ACTIVITY_DEFINITIONS): TActivityRegistry {
  const byPath = new Map<string, TAnyActivityDefinition>();
  const byType = new Map<string, TActivityVersion>();
  const defByType = new Map<string, TAnyActivityDefinition>();
  for (const d of defs) {
    if (byPath.has(d.path)) throw new Error(`duplicate activity path ${d.path}`);
    byPath.set(d.path, d);
    for (const v of d.versions) {
      if (byType.has(v.type)) throw new Error(`duplicate activity type ${v.type}`);
      byType.set(v.type, v);
      defByType.set(v.type, d);
    }
  }
  return {
    byPath: (p) => byPath.get(p),
    version: (d, t) => d.versions.find((v) => v.type === t),
    versionOfType: (t) => byType.get(t),
    byType: (t) => defByType.get(t),
  };
}
