/**
 * Small builders the in-process engine specs share: a P-256 API key parameter, the result of a
 * completed activity, a non-root member with its key, and policy create/delete through the engine.
 */
import { generateP256KeyPair, newId } from '@latchkey/crypto';
import type { TActivity } from '@latchkey/domain';
import { expect } from 'vitest';
import type { TFixture, TKeyPair } from '../src/testing/fixture.js';

/** An `apiKeys[]` item of create_users / create_api_keys for a P-256 key. */
export const p256Key = (name: string, kp: TKeyPair = generateP256KeyPair()) => ({ apiKeyName: name, publicKey: kp.publicKey, curveType: 'API_KEY_CURVE_P256' });

/** Asserts the activity COMPLETED (showing its failure otherwise) and returns `result[key]`. */
export function completed<T>(a: TActivity, key: string): T {
  expect(a.status, JSON.stringify(a.failure)).toBe('ACTIVITY_STATUS_COMPLETED');
  return a.result[key] as T;
}

export interface TMember {
  userId: string;
  key: TKeyPair;
}

/** A non-root user with one P-256 API key (and the given tags), created by the bootstrap root user. */
export async function member(f: TFixture, userName: string, userTags: string[] = []): Promise<TMember> {
  const key = generateP256KeyPair();
  const a = await f.submit('create_users', 'ACTIVITY_TYPE_CREATE_USERS_V4', { users: [{ userName, apiKeys: [p256Key('k', key)], authenticators: [], oauthProviders: [], userTags }] });
  return { userId: completed<{ userIds: string[] }>(a, 'createUsersResult').userIds[0]!, key };
}

/** create_policy (V3) by the root user; an allow with no consensus unless said otherwise. */
export async function createPolicy(f: TFixture, p: { effect?: 'EFFECT_ALLOW' | 'EFFECT_DENY'; condition: string; consensus?: string }): Promise<string> {
  const a = await f.submit('create_policy', 'ACTIVITY_TYPE_CREATE_POLICY_V3', { policyName: `p-${newId()}`, notes: '', effect: 'EFFECT_ALLOW', consensus: '', ...p });
  return completed<{ policyId: string }>(a, 'createPolicyResult').policyId;
}

export const deletePolicy = async (f: TFixture, policyId: string) => completed(await f.submit('delete_policy', 'ACTIVITY_TYPE_DELETE_POLICY', { policyId }), 'deletePolicyResult');
