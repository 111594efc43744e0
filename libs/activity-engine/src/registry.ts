/**
 * Every activity kind Latchkey performs: the concatenation of each resource folder's list
 * (`activities/<resource>/index.ts`), and the two votes (`activities/votes/`). A new kind is a file in its folder and a line in that
 * folder's list; its path, types, intent/result keys come from its definition, and its policy
 * resource and action from the policy table — looked up here once, so a type the table lacks
 * stops the registry from being built (a programming error, caught by every test run).
 */
import type { TActivityWire } from '@latchkey/domain';
import { ROOT_QUORUM_ACTIVITY_TYPES, activityPolicyEntry } from '@latchkey/policy';
import { CREDENTIALS_ACTIVITIES } from './activities/credentials/index.js';
import { LOGINS_ACTIVITIES } from './activities/logins/index.js';
import { OAUTH2_ACTIVITIES } from './activities/oauth2/index.js';
import { ORGANIZATIONS_ACTIVITIES } from './activities/organizations/index.js';
import { POLICIES_ACTIVITIES } from './activities/policies/index.js';
import { PRIVATE_KEYS_ACTIVITIES } from './activities/private-keys/index.js';
import { SIGNING_ACTIVITIES } from './activities/signing/index.js';
import { USERS_ACTIVITIES } from './activities/users/index.js';
import { VOTES_ACTIVITIES } from './activities/votes/index.js';
import { WALLETS_ACTIVITIES } from './activities/wallets/index.js';
import { WEBHOOKS_ACTIVITIES } from './activities/webhooks/index.js';
import { AUTH_PROXY_ACTIVITIES } from './activities/auth-proxy/index.js';
import { IP_ALLOWLISTS_ACTIVITIES } from './activities/ip-allowlists/index.js';
import { SESSION_PROFILES_ACTIVITIES } from './activities/session-profiles/index.js';
import { MFA_POLICIES_ACTIVITIES } from './activities/mfa-policies/index.js';
import { TVC_ACTIVITIES } from './activities/tvc/index.js';
import { SMART_CONTRACT_INTERFACES_ACTIVITIES } from './activities/smart-contract-interfaces/index.js';
import { SECRETS_ACTIVITIES } from './activities/secrets/index.js';
import { INVITATIONS_ACTIVITIES } from './activities/invitations/index.js';
import { TRANSACTIONS_ACTIVITIES } from './activities/transactions/index.js';
import { GAS_ACTIVITIES } from './activities/gas/index.js';
import type { TActivityVersion, TAnyActivityDefinition, TRegisteredActivity, TSubmittable, TVoteDefinition } from './engine/activity-definition.js';

export const ACTIVITY_DEFINITIONS: readonly TAnyActivityDefinition[] = [
  ...WALLETS_ACTIVITIES,
  ...PRIVATE_KEYS_ACTIVITIES,
  ...SIGNING_ACTIVITIES,
  ...USERS_ACTIVITIES,
  ...CREDENTIALS_ACTIVITIES,
  ...ORGANIZATIONS_ACTIVITIES,
  ...LOGINS_ACTIVITIES,
  ...OAUTH2_ACTIVITIES,
  ...POLICIES_ACTIVITIES,
  ...WEBHOOKS_ACTIVITIES,
  ...AUTH_PROXY_ACTIVITIES,
  ...IP_ALLOWLISTS_ACTIVITIES,
  ...SESSION_PROFILES_ACTIVITIES,
  ...MFA_POLICIES_ACTIVITIES,
  ...TVC_ACTIVITIES,
  ...SMART_CONTRACT_INTERFACES_ACTIVITIES,
  ...SECRETS_ACTIVITIES,
  ...INVITATIONS_ACTIVITIES,
  ...TRANSACTIONS_ACTIVITIES,
  ...GAS_ACTIVITIES,
];

/** approve_activity and reject_activity: served on the submit path, governed by the voted-on activity's policies. */
export const VOTE_DEFINITIONS: readonly TVoteDefinition[] = VOTES_ACTIVITIES;

/**
 * Activities no policy governs (the root quorum alone decides them) have no row in the docs' table;
 * the policy request still names a resource and action, `ORGANIZATION` / `UPDATE`.
 */
const ROOT_QUORUM_ENTRY = { resource: 'ORGANIZATION', action: 'UPDATE' } as const;

/**
 * The resource and action every version of a definition maps to.
 * @throws Error when a type is in neither the policy table nor the root-quorum list, or when its versions disagree
 */
export function policyEntryOf(def: TAnyActivityDefinition): { resource: string; action: string } {
  const entries = def.versions.map((v) => {
    if (ROOT_QUORUM_ACTIVITY_TYPES.has(v.type)) return ROOT_QUORUM_ENTRY;
    const e = activityPolicyEntry(v.type);
    if (!e) throw new Error(`activity type ${v.type} (${def.path}) is not in the policy table (libs/policy/src/activity-table.ts); add its resource and action there`);
    return e;
  });
  const [first] = entries;
  for (const e of entries) {
    if (e.resource !== first!.resource || e.action !== first!.action) throw new Error(`the versions of ${def.path} map to different resources or actions in the policy table`);
  }
  return { resource: first!.resource, action: first!.action };
}

export interface TActivityRegistry {
  byPath(path: string): TSubmittable | undefined;
  version(def: TActivityWire, type: string): TActivityVersion | undefined;
  /** Intent/result keys of any known type (for serializing stored activities). */
  versionOfType(type: string): TActivityVersion | undefined;
  /** The definition that accepts a type (to finish a stored activity after consensus). */
  byType(type: string): TRegisteredActivity | undefined;
}

/**
 * Builds the lookup tables.
 * @throws Error on a duplicate path or type, or a type the policy table lacks (programming errors)
 */
export function createActivityRegistry(defs: readonly TAnyActivityDefinition[] = ACTIVITY_DEFINITIONS, votes: readonly TVoteDefinition[] = VOTE_DEFINITIONS): TActivityRegistry {
  const byPath = new Map<string, TSubmittable>();
  const byType = new Map<string, TActivityVersion>();
  const defByType = new Map<string, TRegisteredActivity>();
  for (const d of defs) {
    if (byPath.has(d.path)) throw new Error(`duplicate activity path ${d.path}`);
    const registered: TRegisteredActivity = { ...d, ...policyEntryOf(d) };
    byPath.set(d.path, registered);
    for (const v of d.versions) {
      if (byType.has(v.type)) throw new Error(`duplicate activity type ${v.type}`);
      byType.set(v.type, v);
      defByType.set(v.type, registered);
    }
  }
  for (const v of votes) {
    if (byPath.has(v.path)) throw new Error(`duplicate activity path ${v.path}`);
    byPath.set(v.path, v);
  }
  return {
    byPath: (p) => byPath.get(p),
    version: (d, t) => d.versions.find((v) => v.type === t),
    versionOfType: (t) => byType.get(t),
    byType: (t) => defByType.get(t),
  };
}
