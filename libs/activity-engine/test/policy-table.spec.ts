/**
 * The docs' resource/action/kind table against the registry: every registered activity type is
 * in the table (or is one of the root-quorum activities no policy governs), and each definition
 * declares the table's resource and action.
 */
import { describe, expect, it } from 'vitest';
import { ACTIVITY_DEFINITIONS } from '../src/registry.js';
import { ACTIVITY_POLICY_TABLE, KINDS_WITHOUT_DOCUMENTED_RESOURCE, ROOT_QUORUM_ACTIVITY_TYPES, activityPolicyEntry } from '@latchkey/policy';
import { activityKind } from '../src/engine/activity-definition.js';

describe('ACTIVITY_POLICY_TABLE', () => {
  it('maps every version of a kind to one resource and action', () => {
    // 87 rows of the docs' breakdown table, expanded to 118 types by the kinds table, plus RECOVER_USER.
    const docs = (resource: string, action: string, kind: string) => ({ resource, action, kind, source: 'docs' });
    expect(ACTIVITY_POLICY_TABLE['ACTIVITY_TYPE_SIGN_TRANSACTION']).toEqual(docs('PRIVATE_KEY', 'SIGN', 'SIGN_TRANSACTION'));
    expect(ACTIVITY_POLICY_TABLE['ACTIVITY_TYPE_SIGN_TRANSACTION_V2']).toEqual(docs('PRIVATE_KEY', 'SIGN', 'SIGN_TRANSACTION'));
    expect(ACTIVITY_POLICY_TABLE['ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8']).toEqual(docs('ORGANIZATION', 'CREATE', 'CREATE_SUB_ORGANIZATION'));
    expect(ACTIVITY_POLICY_TABLE['ACTIVITY_TYPE_STAMP_LOGIN']).toEqual(docs('AUTH', 'CREATE', 'STAMP_LOGIN'));
    expect(ACTIVITY_POLICY_TABLE['ACTIVITY_TYPE_VERIFY_OTP']).toEqual(docs('OTP', 'VERIFY', 'VERIFY_OTP'));
    expect(ACTIVITY_POLICY_TABLE['ACTIVITY_TYPE_RE_ENCRYPT_TVC_QUORUM_KEY_SHARE']).toEqual(docs('TVC_QUORUM_KEY', 'ENCRYPT', 'RE_ENCRYPT_TVC_QUORUM_KEY_SHARE'));
    expect(Object.keys(ACTIVITY_POLICY_TABLE)).toHaveLength(119);
  });

  it('marks the types Latchkey adds beyond the docs', () => {
    expect(Object.entries(ACTIVITY_POLICY_TABLE).filter(([, e]) => e.source === 'latchkey').map(([t]) => t)).toEqual(['ACTIVITY_TYPE_RECOVER_USER']);
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

  it("every definition declares the docs table's resource and action", () => {
    const mismatches: string[] = [];
    for (const d of ACTIVITY_DEFINITIONS) {
      for (const v of d.versions) {
        const entry = activityPolicyEntry(v.type);
        if (entry && (entry.resource !== d.resource || entry.action !== d.action)) {
          mismatches.push(`${d.path} (${v.type}): declares ${d.resource}/${d.action}, docs say ${entry.resource}/${entry.action}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});
