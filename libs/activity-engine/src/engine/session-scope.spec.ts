import { isAppError } from '@latchkey/domain';
import { describe, expect, it } from 'vitest';
import { assertWithinSessionScope, parseSessionScope, type TSessionProfileRef } from './session-scope.js';

const profile = (scope: string): TSessionProfileRef => ({ id: 'sp-1', name: 'mobile', scope: parseSessionScope(scope) });
const createWallet = { type: 'ACTIVITY_TYPE_CREATE_WALLET', resource: 'WALLET', action: 'CREATE' };
const signTx = { type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', resource: 'PRIVATE_KEY', action: 'SIGN' };
const ctx = (a: { type: string; resource?: string; action?: string }) => async () => ({ activity: { ...a, kind: a.type.replace('ACTIVITY_TYPE_', ''), params: {} } });

async function refusal(p: TSessionProfileRef, a: { type: string; resource?: string; action?: string }): Promise<unknown> {
  try {
    await assertWithinSessionScope(p, a, ctx(a));
    return undefined;
  } catch (e) {
    return e;
  }
}

describe('parseSessionScope', () => {
  it('reads the three forms', () => {
    expect(parseSessionScope(' read-only ')).toEqual({ kind: 'read-only' });
    expect(parseSessionScope('WALLET:CREATE, PRIVATE_KEY:*')).toEqual({ kind: 'list', pairs: [{ resource: 'WALLET', action: 'CREATE' }, { resource: 'PRIVATE_KEY', action: '*' }] });
    expect(parseSessionScope("activity.resource == 'WALLET'").kind).toBe('condition');
  });

  it.each([
    ['WALLETS:CREATE', /unknown resource WALLETS/],
    ['WALLET:MAKE', /unknown action MAKE/],
    ['WALLET:CREATE,', /entry 1/],
    ['wallet:create', /entry 0/],
    ["activity.resource == ", /not a policy condition/],
    ['readonly please', /not a policy condition/],
  ])('refuses %j with a 400 naming scope', (scope, message) => {
    let err: unknown;
    try {
      parseSessionScope(scope);
    } catch (e) {
      err = e;
    }
    expect(isAppError(err) && err.code === 'BAD_REQUEST' && err.fields?.['field'] === 'scope').toBe(true);
    expect((err as Error).message).toMatch(message);
  });
});

describe('assertWithinSessionScope', () => {
  it('read-only refuses every activity, naming the profile', async () => {
    const e = await refusal(profile('read-only'), createWallet);
    expect(isAppError(e) && e.code === 'REQUEST_NOT_AUTHORIZED').toBe(true);
    expect((e as Error).message).toContain('session profile "mobile" (sp-1)');
  });

  it('a list allows exactly its pairs', async () => {
    const p = profile('WALLET:CREATE');
    expect(await refusal(p, createWallet)).toBeUndefined();
    expect(await refusal(p, signTx)).toBeDefined();
    expect(await refusal(p, { type: 'ACTIVITY_TYPE_APPROVE_ACTIVITY' })).toBeDefined();
    expect(await refusal(profile('PRIVATE_KEY:*'), signTx)).toBeUndefined();
  });

  it('a condition allows when true, refuses when false or on an evaluation error', async () => {
    expect(await refusal(profile("activity.resource == 'WALLET'"), createWallet)).toBeUndefined();
    expect(await refusal(profile("activity.resource == 'WALLET'"), signTx)).toBeDefined();
    expect((await refusal(profile("wallet.id == 'x'"), createWallet) as Error).message).toMatch(/could not be evaluated/);
  });
});
