/** Every query Latchkey answers, in one explicit list. */
import { getActivity, listActivities } from './activities.js';
import { getOrganization } from './get-organization.js';
import { getPrivateKey, listPrivateKeys, listPrivateKeyTags } from './private-keys.js';
import type { TAnyQueryDefinition } from './query-definition.js';
import { getOauth2Credential, listOauth2Credentials } from './oauth2-credentials.js';
import { getWallet, getWalletAccount, listWalletAccounts, listWallets } from './wallets.js';
import { whoami } from './whoami.js';
import { getApiKey, getApiKeys, getUser, listUsers, listUserTags } from './users.js';
import { getOrganizationConfigs, listSubOrgs } from './sub-organizations.js';
import { listVerifiedSubOrgs } from './verified-sub-organizations.js';
import { getAuthenticator, getAuthenticators, getOauthProviders } from './credentials.js';
import { getPolicy, getPolicyEvaluations, listPolicies } from './policies.js';
import { listWebhookEndpoints } from './webhooks.js';
import { getAuthProxyConfig } from './auth-proxy.js';
import { getIpAllowlist } from './ip-allowlists.js';
import { getSessionProfile, getSessionProfiles } from './session-profiles.js';
import { getMfaPolicy, getMfaPolicies, getMfaStatus } from './mfa-policies.js';
import { getTvcApp, getTvcDeployment, getTvcDeploymentDebugLogs, getTvcQosVersions, listTvcAppDeployments, listTvcApps, validateTvcImage } from './tvc.js';
import { getSmartContractInterface, listSmartContractInterfaces } from './smart-contract-interfaces.js';
import { listSecrets } from './secrets.js';
import { listEmailEvents } from './email-events.js';
import { getNonces, getSendTransactionStatus } from './send-transactions.js';
import { getGasUsage } from './gas.js';

export const QUERY_DEFINITIONS: readonly TAnyQueryDefinition[] = [whoami, getOrganization, getActivity, listActivities, listWallets, getWallet, getWalletAccount, listWalletAccounts, getPrivateKey, listPrivateKeys, listPrivateKeyTags, listSubOrgs, listVerifiedSubOrgs, getOrganizationConfigs, getAuthenticators, getAuthenticator, getOauthProviders, getPolicy, listPolicies, getPolicyEvaluations, getUser, listUsers, listUserTags, getApiKeys, getApiKey, getOauth2Credential, listOauth2Credentials, listWebhookEndpoints, getAuthProxyConfig, getIpAllowlist, getSessionProfile, getSessionProfiles, getMfaPolicy, getMfaPolicies, getMfaStatus, getTvcApp, listTvcApps, getTvcDeployment, listTvcAppDeployments, getTvcQosVersions, validateTvcImage, getTvcDeploymentDebugLogs, getSmartContractInterface, listSmartContractInterfaces, listSecrets, listEmailEvents, getSendTransactionStatus, getNonces, getGasUsage];

export function createQueryRegistry(defs: readonly TAnyQueryDefinition[] = QUERY_DEFINITIONS): (path: string) => TAnyQueryDefinition | undefined {
  const byPath = new Map(defs.map((d) => [d.path, d]));
  if (byPath.size !== defs.length) throw new Error('duplicate query path');
  return (p) => byPath.get(p);
}
