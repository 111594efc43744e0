/**
 * The docs' resource/action/kind table against the registry: every registered activity type is
 * in the table (or is one of the root-quorum activities no policy governs), the registry serves
 * each definition with the table's resource and action and refuses a type the table lacks, and
 * each definition exposes exactly Turnkey's documented `activity.params`.
 */
import { describe, expect, it } from 'vitest';
import { ACTIVITY_DEFINITIONS } from '../src/registry.js';
import { ACTIVITY_POLICY_TABLE, KINDS_WITHOUT_DOCUMENTED_RESOURCE, ROOT_QUORUM_ACTIVITY_TYPES, activityKind, activityPolicyEntry } from '@latchkey/policy';
import type { TAnyActivityDefinition } from '../src/engine/activity-definition.js';
import { createActivityRegistry, policyEntryOf } from '../src/registry.js';

describe('ACTIVITY_POLICY_TABLE', () => {
  it('maps every version of a kind to one resource and action', () => {
    // 87 rows of the docs' breakdown table, expanded to 118 types by the kinds table, plus Latchkey's seventeen below (one an alias).
    const docs = (resource: string, action: string, kind: string) => ({ resource, action, kind, source: 'docs' });
    expect(ACTIVITY_POLICY_TABLE['ACTIVITY_TYPE_SIGN_TRANSACTION']).toEqual(docs('PRIVATE_KEY', 'SIGN', 'SIGN_TRANSACTION'));
    expect(ACTIVITY_POLICY_TABLE['ACTIVITY_TYPE_SIGN_TRANSACTION_V2']).toEqual(docs('PRIVATE_KEY', 'SIGN', 'SIGN_TRANSACTION'));
    expect(ACTIVITY_POLICY_TABLE['ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8']).toEqual(docs('ORGANIZATION', 'CREATE', 'CREATE_SUB_ORGANIZATION'));
    expect(ACTIVITY_POLICY_TABLE['ACTIVITY_TYPE_STAMP_LOGIN']).toEqual(docs('AUTH', 'CREATE', 'STAMP_LOGIN'));
    expect(ACTIVITY_POLICY_TABLE['ACTIVITY_TYPE_VERIFY_OTP']).toEqual(docs('OTP', 'VERIFY', 'VERIFY_OTP'));
    expect(ACTIVITY_POLICY_TABLE['ACTIVITY_TYPE_RE_ENCRYPT_TVC_QUORUM_KEY_SHARE']).toEqual(docs('TVC_QUORUM_KEY', 'ENCRYPT', 'RE_ENCRYPT_TVC_QUORUM_KEY_SHARE'));
    expect(Object.keys(ACTIVITY_POLICY_TABLE)).toHaveLength(135);
  });

  it('marks the types Latchkey adds beyond the docs', () => {
    expect(Object.entries(ACTIVITY_POLICY_TABLE).filter(([, e]) => e.source === 'latchkey').map(([t]) => t)).toEqual(['ACTIVITY_TYPE_RECOVER_USER', 'ACTIVITY_TYPE_SET_IP_ALLOWLIST', 'ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST',
      'ACTIVITY_TYPE_INIT_IMPORT_SECRETS',
      'ACTIVITY_TYPE_IMPORT_SECRETS',
      'ACTIVITY_TYPE_EXPORT_SECRETS',
      'ACTIVITY_TYPE_DELETE_SECRETS',
      'ACTIVITY_TYPE_ACCEPT_INVITATION_V2',
      'ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG',
      'ACTIVITY_TYPE_CREATE_SESSION_PROFILE',
      'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION',
      'ACTIVITY_TYPE_CREATE_MFA_POLICY',
      'ACTIVITY_TYPE_UPDATE_MFA_POLICY',
      'ACTIVITY_TYPE_DELETE_MFA_POLICY',
      'ACTIVITY_TYPE_ETH_UNDELEGATE_7702',
      'ACTIVITY_TYPE_ETH_UNDELEGATE7702',
    ]);
  });

  it('gives an alias the entry of the type it names, kind included (a policy on the kind holds under both names)', () => {
    expect(ACTIVITY_POLICY_TABLE['ACTIVITY_TYPE_ETH_UNDELEGATE7702']).toEqual({ resource: 'PRIVATE_KEY', action: 'SIGN', kind: 'ETH_UNDELEGATE_7702', source: 'latchkey' });
    expect(activityKind('ACTIVITY_TYPE_ETH_UNDELEGATE7702')).toBe('ETH_UNDELEGATE_7702');
    expect(ACTIVITY_POLICY_TABLE['ACTIVITY_TYPE_APPROVE_TVC_DEPLOYMENT']).toEqual({ resource: 'TVC_DEPLOYMENT', action: 'UPDATE', kind: 'CREATE_TVC_MANIFEST_APPROVALS', source: 'docs' });
    expect(activityKind('ACTIVITY_TYPE_APPROVE_TVC_DEPLOYMENT')).toBe('CREATE_TVC_MANIFEST_APPROVALS');
  });

  it('keeps root-quorum and unmapped kinds out of the table', () => {
    for (const type of ROOT_QUORUM_ACTIVITY_TYPES) expect(activityPolicyEntry(type)).toBeUndefined();
    for (const kind of KINDS_WITHOUT_DOCUMENTED_RESOURCE) expect(activityPolicyEntry(`ACTIVITY_TYPE_${kind}`)).toBeUndefined();
    expect(activityPolicyEntry('constructor')).toBeUndefined();
  });

  it('activityKind drops the prefix and version, from the table or by name', () => {
    expect(activityKind('ACTIVITY_TYPE_CREATE_USERS_V4')).toBe('CREATE_USERS');
    expect(activityKind('ACTIVITY_TYPE_OAUTH2_AUTHENTICATE')).toBe('OAUTH2_AUTHENTICATE');
    expect(activityKind('ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE')).toBe('SET_ORGANIZATION_FEATURE');
    for (const [type, entry] of Object.entries(ACTIVITY_POLICY_TABLE)) expect(activityKind(type)).toBe(entry.kind);
  });
});

describe('registered activity definitions', () => {
  it('every registered type is in the table (or is a root-quorum activity)', () => {
    const missing = ACTIVITY_DEFINITIONS.flatMap((d) => d.versions.map((v) => v.type)).filter((t) => !activityPolicyEntry(t) && !ROOT_QUORUM_ACTIVITY_TYPES.has(t));
    expect(missing).toEqual([]);
  });

  it("serves every definition with the docs table's resource and action", () => {
    const registry = createActivityRegistry();
    expect(registry.byPath('sign_transaction')).toMatchObject({ resource: 'PRIVATE_KEY', action: 'SIGN' });
    expect(registry.byPath('create_wallet')).toMatchObject({ resource: 'WALLET', action: 'CREATE' });
    expect(registry.byPath('update_root_quorum')).toMatchObject({ resource: 'ORGANIZATION', action: 'UPDATE' });
    for (const d of ACTIVITY_DEFINITIONS) {
      for (const v of d.versions) {
        const entry = activityPolicyEntry(v.type);
        if (entry) expect(registry.byType(v.type)).toMatchObject({ resource: entry.resource, action: entry.action });
      }
    }
  });

  it('refuses to build with a type the policy table lacks', () => {
    const bogus = { ...ACTIVITY_DEFINITIONS[0]!, path: 'bogus', versions: [{ type: 'ACTIVITY_TYPE_BOGUS', intentKey: 'b', resultKey: 'b' }] } as TAnyActivityDefinition;
    expect(() => policyEntryOf(bogus)).toThrow(/ACTIVITY_TYPE_BOGUS \(bogus\) is not in the policy table/);
    expect(() => createActivityRegistry([...ACTIVITY_DEFINITIONS, bogus])).toThrow(/not in the policy table/);
  });

  it('exposes only the documented request fields as activity.params, snake_case, numbers as ints', () => {
    const registry = createActivityRegistry();
    const params = (type: string, intent: unknown) => registry.byType(type)?.policyParams?.(intent) ?? {};
    expect(params('ACTIVITY_TYPE_DELETE_API_KEYS', { userId: 'u', apiKeyIds: ['k'], organizationId: 'o' })).toEqual({ user_id: 'u', api_key_ids: ['k'] });
    expect(params('ACTIVITY_TYPE_CREATE_API_KEYS_V2', { userId: 'u', apiKeys: [] })).toEqual({ user_id: 'u' });
    expect(params('ACTIVITY_TYPE_DELETE_USERS', { userIds: ['a'] })).toEqual({ user_ids: ['a'] });
    expect(params('ACTIVITY_TYPE_INIT_OTP_AUTH_V3', { otpLength: 6, contact: 'a@b.c' })).toEqual({ otp_length: 6n });
    expect(params('ACTIVITY_TYPE_STAMP_LOGIN', { publicKey: '02' })).toEqual({ session_profile_id: '' });
    expect(params('ACTIVITY_TYPE_OTP_LOGIN', { sessionProfileId: 'p' })).toEqual({ session_profile_id: 'p' });
    expect(params('ACTIVITY_TYPE_OAUTH_LOGIN', {})).toEqual({ session_profile_id: '' });
    expect(params('ACTIVITY_TYPE_EXPORT_WALLET', { walletId: 'w', targetPublicKey: '04' })).toEqual({ target_public_key: '04' });
    expect(params('ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT', { address: 'a', targetPublicKey: '04' })).toEqual({ target_public_key: '04' });
    expect(params('ACTIVITY_TYPE_EXPORT_PRIVATE_KEY', { privateKeyId: 'k', targetPublicKey: '04' })).toEqual({ target_public_key: '04' });
    expect(params('ACTIVITY_TYPE_UPDATE_WALLET', { walletId: 'w', walletName: 'n' })).toEqual({ wallet_id: 'w' });
    expect(params('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', { signWith: 'x', payload: 'p', hashFunction: 'HASH_FUNCTION_NO_OP', encoding: 'PAYLOAD_ENCODING_HEXADECIMAL' })).toEqual({ hash_function: 'HASH_FUNCTION_NO_OP', encoding: 'PAYLOAD_ENCODING_HEXADECIMAL' });
    expect(params('ACTIVITY_TYPE_SIGN_RAW_PAYLOADS', { signWith: 'x', payloads: [], hashFunction: 'HASH_FUNCTION_NO_OP', encoding: 'PAYLOAD_ENCODING_HEXADECIMAL' })).toEqual({ hash_function: 'HASH_FUNCTION_NO_OP', encoding: 'PAYLOAD_ENCODING_HEXADECIMAL' });
    expect(params('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', { signWith: 'x', type: 'TRANSACTION_TYPE_ETHEREUM', unsignedTransaction: '00' })).toEqual({ type: 'TRANSACTION_TYPE_ETHEREUM' });
    expect(params('ACTIVITY_TYPE_CREATE_WALLET', { walletName: 'w' })).toEqual({});
  });
});
