/**
 * Every activity kind Latchkey performs, in one explicit list. A new kind is a folder under
 * `activities/` and one line here; the path, the accepted types and the intent/result keys all
 * come from its definition.
 */
import { createPrivateKeys } from './activities/create-private-keys/create-private-keys.js';
import { deletePrivateKeys } from './activities/delete-private-keys/delete-private-keys.js';
import { createPrivateKeyTag, deletePrivateKeyTags, updatePrivateKeyTag } from './activities/private-key-tags/private-key-tags.js';
import { exportPrivateKey, exportWallet, exportWalletAccount } from './activities/export/export.js';
import { importPrivateKey, importWallet, initImportPrivateKey, initImportWallet } from './activities/import/import.js';
import { signRawPayload, signRawPayloads, signTransaction } from './activities/signing/sign.js';
import { createWalletAccounts } from './activities/create-wallet-accounts/create-wallet-accounts.js';
import { createWallet } from './activities/create-wallet/create-wallet.js';
import { deleteWalletAccounts } from './activities/delete-wallet-accounts/delete-wallet-accounts.js';
import { deleteWallets } from './activities/delete-wallets/delete-wallets.js';
import { updateWallet } from './activities/update-wallet/update-wallet.js';
import { createUsers, deleteUsers, updateUser } from './activities/users/users.js';
import { createUserTag, deleteUserTags, updateUserTag } from './activities/user-tags/user-tags.js';
import { createApiKeys, deleteApiKeys } from './activities/api-keys/api-keys.js';
import { createSubOrganization } from './activities/sub-organizations/create-sub-organization.js';
import { deleteSubOrganization } from './activities/sub-organizations/delete-sub-organization.js';
import { removeOrganizationFeature, setOrganizationFeature } from './activities/organization-features/organization-features.js';
import { stampLogin } from './activities/sessions/stamp-login.js';
import { createReadWriteSession } from './activities/sessions/create-read-write-session.js';
import { initOtp } from './activities/otp/init-otp.js';
import { verifyOtp } from './activities/otp/verify-otp.js';
import { otpLogin } from './activities/otp/otp-login.js';
import { initOtpAuth, otpAuth } from './activities/otp/otp-auth.js';
import { oauth, oauthLogin } from './activities/oauth/oauth-login.js';
import { emailAuth } from './activities/email-auth/email-auth.js';
import { initUserEmailRecovery, recoverUser } from './activities/recovery/recovery.js';
import { createAuthenticators, deleteAuthenticators } from './activities/authenticators/authenticators.js';
import { createOauthProviders, deleteOauthProviders } from './activities/oauth-providers/oauth-providers.js';
import { createPolicies, createPolicy, deletePolicies, deletePolicy, updatePolicy } from './activities/policies/policies.js';
import { updateRootQuorum } from './activities/root-quorum/update-root-quorum.js';
import { createOauth2Credential, deleteOauth2Credential, updateOauth2Credential } from './activities/oauth2/oauth2-credentials.js';
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
