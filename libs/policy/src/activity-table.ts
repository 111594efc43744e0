/**
 * `activity.resource`, `activity.action` and `activity.kind` of every activity type, in one place.
 *
 * Source: Turnkey's policy language reference (tkhq/docs `features/policies/language.mdx`,
 * "Activity breakdown": the table of types by resource and action, and the "Activity kinds" table
 * that groups every version of a type under its kind; the older `concepts/policies/language.mdx`
 * table lists earlier versions of the same rows). The breakdown table names one version per
 * activity; every version in the kinds table shares that row's resource and action.
 */

export type TPolicyResource =
  | 'AUTH'
  | 'AUTH_PROXY'
  | 'CONFIG'
  | 'CREDENTIAL'
  | 'INVITATION'
  | 'ORGANIZATION'
  | 'OTP'
  | 'PAYMENT_METHOD'
  | 'POLICY'
  | 'PRIVATE_KEY'
  | 'RECOVERY'
  | 'SECRET'
  | 'SMART_CONTRACT_INTERFACE'
  | 'SUBSCRIPTION'
  | 'TVC_APP'
  | 'TVC_DEPLOYMENT'
  | 'TVC_OPERATOR'
  | 'TVC_QUORUM_KEY'
  | 'USER'
  | 'WALLET'
  | 'WEBHOOK_ENDPOINT';

export type TPolicyAction = 'CREATE' | 'UPDATE' | 'DELETE' | 'SIGN' | 'EXPORT' | 'IMPORT' | 'VERIFY' | 'ENCRYPT';

export interface TActivityPolicyEntry {
  resource: TPolicyResource;
  action: TPolicyAction;
  /** Version-free kind, e.g. `SIGN_TRANSACTION`. */
  kind: string;
  /** `docs`: from Turnkey's tables; `latchkey`: a type Latchkey performs that the tables omit (our choice). */
  source: 'docs' | 'latchkey';
}

/** Kind → resource, action and the versions (suffixes after the kind; '' is the unversioned type). */
const KINDS: readonly (readonly [kind: string, resource: TPolicyResource, action: TPolicyAction, versions?: readonly string[]])[] = [
  ['CREATE_SUB_ORGANIZATION', 'ORGANIZATION', 'CREATE', ['', '_V2', '_V3', '_V4', '_V5', '_V6', '_V7', '_V8']],
  ['DELETE_ORGANIZATION', 'ORGANIZATION', 'DELETE'],
  ['DELETE_SUB_ORGANIZATION', 'ORGANIZATION', 'DELETE'],

  ['CREATE_INVITATIONS', 'INVITATION', 'CREATE'],
  ['DELETE_INVITATION', 'INVITATION', 'DELETE'],

  ['CREATE_POLICY', 'POLICY', 'CREATE', ['', '_V2', '_V3']],
  ['CREATE_POLICIES', 'POLICY', 'CREATE'],
  ['UPDATE_POLICY', 'POLICY', 'UPDATE', ['', '_V2']],
  ['DELETE_POLICY', 'POLICY', 'DELETE'],
  ['DELETE_POLICIES', 'POLICY', 'DELETE'],

  ['CREATE_SMART_CONTRACT_INTERFACE', 'SMART_CONTRACT_INTERFACE', 'CREATE'],
  ['DELETE_SMART_CONTRACT_INTERFACE', 'SMART_CONTRACT_INTERFACE', 'DELETE'],

  ['CREATE_WALLET', 'WALLET', 'CREATE'],
  ['CREATE_WALLET_ACCOUNTS', 'WALLET', 'CREATE'],
  ['EXPORT_WALLET', 'WALLET', 'EXPORT'],
  ['EXPORT_WALLET_ACCOUNT', 'WALLET', 'EXPORT'],
  ['INIT_IMPORT_WALLET', 'WALLET', 'IMPORT'],
  ['IMPORT_WALLET', 'WALLET', 'IMPORT'],
  ['DELETE_WALLETS', 'WALLET', 'DELETE'],
  ['UPDATE_WALLET', 'WALLET', 'UPDATE'],
  ['DELETE_WALLET_ACCOUNTS', 'WALLET', 'DELETE'],

  ['CREATE_PRIVATE_KEYS', 'PRIVATE_KEY', 'CREATE', ['', '_V2']],
  ['CREATE_PRIVATE_KEY_TAG', 'PRIVATE_KEY', 'CREATE'],
  ['UPDATE_PRIVATE_KEY_TAG', 'PRIVATE_KEY', 'UPDATE'],
  ['DISABLE_PRIVATE_KEY', 'PRIVATE_KEY', 'DELETE'],
  ['DELETE_PRIVATE_KEY_TAGS', 'PRIVATE_KEY', 'DELETE'],
  ['DELETE_PRIVATE_KEYS', 'PRIVATE_KEY', 'DELETE'],
  ['EXPORT_PRIVATE_KEY', 'PRIVATE_KEY', 'EXPORT'],
  ['INIT_IMPORT_PRIVATE_KEY', 'PRIVATE_KEY', 'IMPORT'],
  ['IMPORT_PRIVATE_KEY', 'PRIVATE_KEY', 'IMPORT'],
  ['SIGN_RAW_PAYLOAD', 'PRIVATE_KEY', 'SIGN', ['', '_V2']],
  ['SIGN_RAW_PAYLOADS', 'PRIVATE_KEY', 'SIGN'],
  ['SIGN_TRANSACTION', 'PRIVATE_KEY', 'SIGN', ['', '_V2']],
  ['ETH_SEND_TRANSACTION', 'PRIVATE_KEY', 'SIGN', ['', '_V2']],
  ['SOL_SEND_TRANSACTION', 'PRIVATE_KEY', 'SIGN'],

  ['CREATE_USERS', 'USER', 'CREATE', ['', '_V2', '_V3', '_V4']],
  ['CREATE_USER_TAG', 'USER', 'CREATE'],
  ['CREATE_API_ONLY_USERS', 'USER', 'CREATE'],
  ['UPDATE_USER', 'USER', 'UPDATE'],
  ['UPDATE_USER_NAME', 'USER', 'UPDATE'],
  ['UPDATE_USER_EMAIL', 'USER', 'UPDATE'],
  ['UPDATE_USER_PHONE_NUMBER', 'USER', 'UPDATE'],
  ['UPDATE_USER_TAG', 'USER', 'UPDATE'],
  ['DELETE_USERS', 'USER', 'DELETE'],
  ['DELETE_USER_TAGS', 'USER', 'DELETE'],

  ['CREATE_API_KEYS', 'CREDENTIAL', 'CREATE', ['', '_V2']],
  ['CREATE_AUTHENTICATORS', 'CREDENTIAL', 'CREATE', ['', '_V2']],
  ['DELETE_API_KEYS', 'CREDENTIAL', 'DELETE'],
  ['DELETE_AUTHENTICATORS', 'CREDENTIAL', 'DELETE'],
  ['CREATE_OAUTH_PROVIDERS', 'CREDENTIAL', 'CREATE', ['', '_V2']],
  ['DELETE_OAUTH_PROVIDERS', 'CREDENTIAL', 'DELETE'],

  ['SET_PAYMENT_METHOD', 'PAYMENT_METHOD', 'UPDATE', ['', '_V2']],
  ['DELETE_PAYMENT_METHOD', 'PAYMENT_METHOD', 'DELETE'],
  ['ACTIVATE_BILLING_TIER', 'SUBSCRIPTION', 'CREATE'],
  ['UPDATE_ALLOWED_ORIGINS', 'CONFIG', 'UPDATE'],
  // Marked legacy in the docs' table.
  ['INIT_USER_EMAIL_RECOVERY', 'RECOVERY', 'CREATE', ['', '_V2']],

  ['EMAIL_AUTH', 'AUTH', 'CREATE', ['', '_V2', '_V3']],
  ['INIT_OTP_AUTH', 'AUTH', 'CREATE', ['', '_V2', '_V3']],
  ['OTP_AUTH', 'AUTH', 'CREATE'],
  ['OAUTH', 'AUTH', 'CREATE'],
  ['OAUTH_LOGIN', 'AUTH', 'CREATE'],
  ['OTP_LOGIN', 'AUTH', 'CREATE', ['', '_V2']],
  ['STAMP_LOGIN', 'AUTH', 'CREATE'],
  ['CREATE_READ_WRITE_SESSION', 'AUTH', 'CREATE', ['', '_V2']],
  ['CREATE_OAUTH2_CREDENTIAL', 'AUTH', 'CREATE'],
  ['DELETE_OAUTH2_CREDENTIAL', 'AUTH', 'DELETE'],
  ['UPDATE_OAUTH2_CREDENTIAL', 'AUTH', 'UPDATE'],
  ['OAUTH2_AUTHENTICATE', 'AUTH', 'CREATE'],

  ['INIT_OTP', 'OTP', 'CREATE', ['', '_V2', '_V3']],
  ['VERIFY_OTP', 'OTP', 'VERIFY', ['', '_V2']],

  ['ENABLE_AUTH_PROXY', 'AUTH_PROXY', 'CREATE'],
  ['DISABLE_AUTH_PROXY', 'AUTH_PROXY', 'DELETE'],
  ['UPDATE_AUTH_PROXY_CONFIG', 'AUTH_PROXY', 'UPDATE'],

  ['CREATE_WEBHOOK_ENDPOINT', 'WEBHOOK_ENDPOINT', 'CREATE'],
  ['UPDATE_WEBHOOK_ENDPOINT', 'WEBHOOK_ENDPOINT', 'UPDATE'],
  ['DELETE_WEBHOOK_ENDPOINT', 'WEBHOOK_ENDPOINT', 'DELETE'],

  ['CREATE_TVC_APP', 'TVC_APP', 'CREATE'],
  ['UPDATE_TVC_APP_LIVE_DEPLOYMENT', 'TVC_APP', 'UPDATE'],
  ['DELETE_TVC_APP_AND_DEPLOYMENTS', 'TVC_APP', 'DELETE'],
  ['CREATE_TVC_DEPLOYMENT', 'TVC_DEPLOYMENT', 'CREATE'],
  ['CREATE_TVC_MANIFEST_APPROVALS', 'TVC_DEPLOYMENT', 'UPDATE'],
  ['RESTORE_TVC_DEPLOYMENT', 'TVC_DEPLOYMENT', 'UPDATE'],
  ['POST_TVC_QUORUM_KEY_SHARE', 'TVC_DEPLOYMENT', 'UPDATE'],
  ['DELETE_TVC_DEPLOYMENT', 'TVC_DEPLOYMENT', 'DELETE'],
  ['CREATE_TVC_OPERATOR', 'TVC_OPERATOR', 'CREATE'],
  ['CREATE_TVC_QUORUM_KEY', 'TVC_QUORUM_KEY', 'CREATE'],
  ['RE_ENCRYPT_TVC_QUORUM_KEY_SHARE', 'TVC_QUORUM_KEY', 'ENCRYPT'],
];

/**
 * Types Latchkey performs that neither of the docs' tables lists. `RECOVER_USER` (the second step
 * of the legacy email recovery) adds an authenticator to the recovering user: a credential created.
 * `SET_IP_ALLOWLIST` / `REMOVE_IP_ALLOWLIST` change who may reach the organization at all.
 */
const LATCHKEY_KINDS: typeof KINDS = [
  ['RECOVER_USER', 'CREDENTIAL', 'CREATE'],
  // IP allowlists are the organization's access configuration, as UPDATE_ALLOWED_ORIGINS is.
  ['SET_IP_ALLOWLIST', 'CONFIG', 'UPDATE'],
  ['REMOVE_IP_ALLOWLIST', 'CONFIG', 'DELETE'],
  // Opaque secrets (issue 16 §6): newer than the docs' tables; their own resource, with the
  // actions of the private keys they are imported and exported like.
  ['INIT_IMPORT_SECRETS', 'SECRET', 'IMPORT'],
  ['IMPORT_SECRETS', 'SECRET', 'IMPORT'],
  ['EXPORT_SECRETS', 'SECRET', 'EXPORT'],
  ['DELETE_SECRETS', 'SECRET', 'DELETE'],
  // Accepting an invitation changes it (and adds its receiver as a user); the docs list only its
  // creation and deletion. Latchkey serves V2 only.
  ['ACCEPT_INVITATION', 'INVITATION', 'UPDATE', ['_V2']],
  // The gas window (issue 15 §2) is the organization's billing configuration, as its IP
  // allowlists are its access configuration: the docs list the kind without a row.
  ['UPSERT_GAS_USAGE_CONFIG', 'CONFIG', 'UPDATE'],
  // Session profiles (issue 16 §4): the docs' kinds table lists CREATE_SESSION_PROFILE without a
  // row; a profile configures what the organization's sessions may do, as its allowlists do. A
  // read-only session is a session of one's own, as CREATE_READ_WRITE_SESSION is (AUTH).
  ['CREATE_SESSION_PROFILE', 'CONFIG', 'CREATE'],
  ['CREATE_READ_ONLY_SESSION', 'AUTH', 'CREATE'],
  // MFA policies (issue 16 §3): the docs' kinds table lists them without a row. They are
  // policies — they decide when a user's activities wait — so they take the POLICY resource, and
  // whoever may write the organization's policies may write them.
  ['CREATE_MFA_POLICY', 'POLICY', 'CREATE'],
  ['UPDATE_MFA_POLICY', 'POLICY', 'UPDATE'],
  ['DELETE_MFA_POLICY', 'POLICY', 'DELETE'],
  // EIP-7702 undelegation (issue 15 §2): newer than the docs' tables. It signs a transaction (and
  // an authorization) with the account's key and sends it, as ETH_SEND_TRANSACTION does.
  ['ETH_UNDELEGATE_7702', 'PRIVATE_KEY', 'SIGN'],
];

/**
 * Second names of one type: sdk-server 8.2's `ethUndelegate7702` sends `…_ETH_UNDELEGATE7702`,
 * the swagger names `…_ETH_UNDELEGATE_7702`; the seed spec calls CREATE_TVC_MANIFEST_APPROVALS
 * `…_APPROVE_TVC_DEPLOYMENT`. An alias shares the entry, kind included, so a policy about
 * `activity.kind == 'ETH_UNDELEGATE_7702'` (or `'CREATE_TVC_MANIFEST_APPROVALS'`) cannot be
 * stepped around by sending the other name.
 */
const TYPE_ALIASES: readonly (readonly [alias: string, type: string])[] = [
  ['ACTIVITY_TYPE_ETH_UNDELEGATE7702', 'ACTIVITY_TYPE_ETH_UNDELEGATE_7702'],
  ['ACTIVITY_TYPE_APPROVE_TVC_DEPLOYMENT', 'ACTIVITY_TYPE_CREATE_TVC_MANIFEST_APPROVALS'],
];

function buildTable(): Readonly<Record<string, TActivityPolicyEntry>> {
  const table: Record<string, TActivityPolicyEntry> = {};
  const add = (rows: typeof KINDS, source: TActivityPolicyEntry['source']) => {
    for (const [kind, resource, action, versions = ['']] of rows) {
      for (const suffix of versions) {
        const type = `ACTIVITY_TYPE_${kind}${suffix}`;
        if (type in table) throw new Error(`activity type ${type} is listed twice`);
        table[type] = Object.freeze({ resource, action, kind, source });
      }
    }
  };
  add(KINDS, 'docs');
  add(LATCHKEY_KINDS, 'latchkey');
  for (const [alias, type] of TYPE_ALIASES) {
    if (alias in table || !(type in table)) throw new Error(`activity type alias ${alias} of ${type} is listed twice or names no type`);
    table[alias] = table[type]!;
  }
  return Object.freeze(table);
}

/** Every activity type of Turnkey's policy tables (all versions) → its resource, action and kind. */
export const ACTIVITY_POLICY_TABLE: Readonly<Record<string, TActivityPolicyEntry>> = buildTable();

/**
 * Kinds the docs' kinds table lists without a resource/action row (Spark, swaps, fiat on-ramp;
 * gas usage, session profiles and MFA policies, which Latchkey performs, have their rows above). Latchkey performs none of them; listed so a reader
 * knows their absence from `ACTIVITY_POLICY_TABLE` is the docs', not an oversight.
 */
export const KINDS_WITHOUT_DOCUMENTED_RESOURCE: readonly string[] = [
  'UPSERT_SWAP_CONFIG',
  'SPARK_SIGN_FROST',
  'SPARK_PREPARE_TRANSFER',
  'SPARK_CLAIM_TRANSFER',
  'SPARK_PREPARE_LIGHTNING_RECEIVE',
  'EXECUTE_SWAP',
  'INIT_FIAT_ON_RAMP',
  'CREATE_FIAT_ON_RAMP_CREDENTIAL',
  'DELETE_FIAT_ON_RAMP_CREDENTIAL',
  'UPDATE_FIAT_ON_RAMP_CREDENTIAL',
];

/**
 * Activities governed by the root quorum alone (docs: "Root quorum activities"): no policy can
 * allow or deny them, and they have no `activity.kind`.
 */
export const ROOT_QUORUM_ACTIVITY_TYPES: ReadonlySet<string> = new Set([
  'ACTIVITY_TYPE_UPDATE_ROOT_QUORUM',
  'ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE',
  'ACTIVITY_TYPE_REMOVE_ORGANIZATION_FEATURE',
  'ACTIVITY_TYPE_UPDATE_ORGANIZATION_NAME',
]);

/** The table's entry for a type, or undefined for a type the docs do not map. */
export function activityPolicyEntry(type: string): TActivityPolicyEntry | undefined {
  return Object.prototype.hasOwnProperty.call(ACTIVITY_POLICY_TABLE, type) ? ACTIVITY_POLICY_TABLE[type] : undefined;
}

/**
 * `activity.kind`: the version-free name (`ACTIVITY_TYPE_SIGN_TRANSACTION_V2` → `SIGN_TRANSACTION`).
 * The table's kind when the type is in it, else the name without its prefix and `_V<n>` suffix.
 */
export function activityKind(type: string): string {
  return activityPolicyEntry(type)?.kind ?? type.replace(/^ACTIVITY_TYPE_/, '').replace(/_V\d+$/, '');
}
