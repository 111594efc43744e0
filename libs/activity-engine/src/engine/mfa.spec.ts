import { AppError } from '@latchkey/domain';
import type { TActivityMfaRow, TMfaPolicyRow } from '@latchkey/persistence';
import { createConditionContext } from '@latchkey/policy';
import { describe, expect, it } from 'vitest';
import { applicableMfaPolicy, mfaSatisfied, nextMfaSteps, parseMfaCondition } from './mfa.js';
import type { TPrincipal } from './principal.js';

const proof = { publicKey: '02ab', scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: '30' };
const apiKey = (userId: string, credentialType = 'CREDENTIAL_TYPE_API_KEY_P256'): TPrincipal => ({ organizationId: 'o', userId, credential: { kind: 'api-key', apiKeyId: 'key-1', credentialType, ...proof } });
const passkey = (userId: string): TPrincipal => ({ organizationId: 'o', userId, credential: { kind: 'webauthn', authenticatorId: 'auth-1', credentialId: 'cred', ...proof } });

const policy = (id: string, userId: string, condition: string, order: number): TMfaPolicyRow => ({
  organizationId: 'o', id, userId, name: id, condition, order, notes: '', createdAt: new Date(0), updatedAt: new Date(0),
  requiredMethods: [{ any: [{ type: 'AUTHENTICATION_TYPE_API_KEY' }] }, { any: [{ type: 'AUTHENTICATION_TYPE_PASSKEY' }] }],
});
const waiting = (satisfied: TActivityMfaRow['satisfiedMethods'] = []): TActivityMfaRow => ({
  organizationId: 'o', activityId: 'a', mfaPolicyId: 'p', userId: 'alice', requiredMethods: policy('p', 'alice', 'true', 0).requiredMethods, satisfiedMethods: satisfied,
});
const context = (type: string) => async () => createConditionContext({ type, params: {}, now: new Date(0) });

describe('parseMfaCondition', () => {
  it('refuses a syntax error with a 400 naming condition', () => {
    expect(parseMfaCondition("activity.type == 'X'")).toBeDefined();
    try {
      parseMfaCondition("activity.type == 'X' &&");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).toBody()).toMatchObject({ message: expect.stringMatching(/^condition: /) });
    }
  });
});

describe('applicableMfaPolicy', () => {
  const list = [policy('never', 'alice', 'false', 0), policy('wallets', 'alice', "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'", 1), policy('bobs', 'bob', 'true', 0)];

  it("takes the first of the user's policies whose condition is true", async () => {
    expect((await applicableMfaPolicy(list, 'alice', context('ACTIVITY_TYPE_CREATE_WALLET')))?.id).toBe('wallets');
    expect(await applicableMfaPolicy(list, 'alice', context('ACTIVITY_TYPE_DELETE_WALLETS'))).toBeUndefined();
    expect((await applicableMfaPolicy(list, 'bob', context('ACTIVITY_TYPE_DELETE_WALLETS')))?.id).toBe('bobs');
    expect(await applicableMfaPolicy(list, 'carol', context('ACTIVITY_TYPE_CREATE_WALLET'))).toBeUndefined();
  });

  it('does not build the condition context for a user without policies', async () => {
    let built = false;
    expect(await applicableMfaPolicy(list, 'carol', async () => ((built = true), {}))).toBeUndefined();
    expect(built).toBe(false);
  });

  it('fails closed: a condition that cannot be evaluated applies', async () => {
    expect((await applicableMfaPolicy([policy('odd', 'alice', "wallet.id == 'w'", 0)], 'alice', context('ACTIVITY_TYPE_CREATE_WALLET')))?.id).toBe('odd');
  });
});

describe('nextMfaSteps', () => {
  it('counts the API key, then the passkey, in order', () => {
    const one = nextMfaSteps(waiting(), apiKey('alice'), new Date(0));
    expect(one).toEqual([{ type: 'AUTHENTICATION_TYPE_API_KEY', id: 'key-1', at: new Date(0).toISOString() }]);
    expect(mfaSatisfied({ ...waiting(), satisfiedMethods: one })).toBe(false);
    const two = nextMfaSteps(waiting(one), passkey('alice'), new Date(0));
    expect(two.map((s) => s.type)).toEqual(['AUTHENTICATION_TYPE_API_KEY', 'AUTHENTICATION_TYPE_PASSKEY']);
    expect(mfaSatisfied({ ...waiting(), satisfiedMethods: two })).toBe(true);
  });

  it('refuses the wrong method or order, naming the expected method', () => {
    expect(() => nextMfaSteps(waiting(), passkey('alice'), new Date(0))).toThrow(/step 1 of 2 .* expects AUTHENTICATION_TYPE_API_KEY/);
    const one = nextMfaSteps(waiting(), apiKey('alice'), new Date(0));
    expect(() => nextMfaSteps(waiting(one), apiKey('alice'), new Date(0))).toThrow(/step 2 of 2 .* expects AUTHENTICATION_TYPE_PASSKEY/);
    // A session key is not an API key.
    expect(() => nextMfaSteps(waiting(), apiKey('alice', 'CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256'), new Date(0))).toThrow(/expects AUTHENTICATION_TYPE_API_KEY/);
  });

  it("refuses another user's approval and a step beyond the last", () => {
    expect(() => nextMfaSteps(waiting(), apiKey('bob'), new Date(0))).toThrow(/only that user/);
    const done = nextMfaSteps(waiting(nextMfaSteps(waiting(), apiKey('alice'), new Date(0))), passkey('alice'), new Date(0));
    expect(() => nextMfaSteps(waiting(done), passkey('alice'), new Date(0))).toThrow(/already done/);
  });

  it('holds a method to its credential id when the policy names one', () => {
    const pinned: TActivityMfaRow = { ...waiting(), requiredMethods: [{ any: [{ type: 'AUTHENTICATION_TYPE_API_KEY', id: 'key-2' }] }] };
    expect(() => nextMfaSteps(pinned, apiKey('alice'), new Date(0))).toThrow(/expects AUTHENTICATION_TYPE_API_KEY \(key-2\)/);
  });
});
