/**
 * The order of the API-key path, on an in-memory store: a key nobody holds is refused before its
 * body is read or any signature verified, and after the first refusal without touching the store
 * (and, through refuseCachedStranger, before the HTTP layer reads the body); a key announced on the
 * change feed is found at once; nothing from a body with an unstorable string reaches the store.
 */
import * as crypto from '@latchkey/crypto';
import type { ApiKey, Organization, TStore } from '@latchkey/persistence';
import { isAppError } from '@latchkey/domain';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuthCache } from './auth-cache.js';
import { createAuthenticator } from './authenticate.js';

vi.mock('@latchkey/crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@latchkey/crypto')>();
  return { ...actual, verifyParsedApiKeyStamp: vi.fn(actual.verifyParsedApiKeyStamp) };
});

const verify = vi.mocked(crypto.verifyParsedApiKeyStamp);

const org: Organization = { id: 'org-1', name: 'Org', parentOrganizationId: null } as unknown as Organization;

function fakeStore(keys: ApiKey[]) {
  const calls = { findById: 0, findApiKeys: 0, apiKeysInSubOrganizations: 0, publicKeyHeld: 0 };
  const store = {
    organizations: {
      findById: async (id: string) => {
        calls.findById++;
        return id === org.id ? org : null;
      },
    },
    credentials: {
      publicKeyHeld: async (publicKey: string) => {
        calls.publicKeyHeld++;
        return keys.some((k) => k.publicKey === publicKey);
      },
      findApiKeys: async (orgIds: string[], publicKey: string) => {
        calls.findApiKeys++;
        return keys.filter((k) => orgIds.includes(k.organizationId) && k.publicKey === publicKey);
      },
    },
    logins: {
      apiKeysInSubOrganizations: async () => {
        calls.apiKeysInSubOrganizations++;
        return [];
      },
    },
  } as unknown as TStore;
  return { store, calls, dbCalls: () => calls.findById + calls.findApiKeys + calls.apiKeysInSubOrganizations + calls.publicKeyHeld };
}

function stamped(body: object, kp: { publicKey: string; privateKey: string }, opts: { badSignature?: boolean } = {}) {
  const raw = Buffer.from(JSON.stringify(body));
  let signature = crypto.signP256(kp.privateKey, raw);
  if (opts.badSignature) signature = crypto.signP256(kp.privateKey, Buffer.from('something else'));
  const header = Buffer.from(JSON.stringify({ publicKey: kp.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature })).toString('base64url');
  return { headers: { 'x-stamp': header }, raw };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return e.code;
    throw e;
  }
  return 'OK';
}

const member = crypto.generateP256KeyPair();
const stranger = crypto.generateP256KeyPair();
const memberKey = { id: 'key-1', organizationId: org.id, userId: 'user-1', publicKey: member.publicKey, expiresAt: null, credentialType: 'CREDENTIAL_TYPE_API_KEY_P256' } as unknown as ApiKey;

// A block body: a returned function would be taken for a teardown and called.
beforeEach(() => {
  verify.mockClear();
});

describe('API-key stamps: the key is looked up before the signature is verified', () => {
  it('refuses an unknown key without verifying its signature, then without touching the store', async () => {
    const { store, dbCalls } = fakeStore([memberKey]);
    const { authenticate } = createAuthenticator(store, createAuthCache(store));
    const req = stamped({ organizationId: org.id }, stranger);
    expect(await codeOf(authenticate(req.headers, req.raw))).toBe('PUBLIC_KEY_NOT_FOUND');
    expect(verify).not.toHaveBeenCalled();
    const afterFirst = dbCalls();
    for (let i = 0; i < 100; i++) expect(await codeOf(authenticate(req.headers, req.raw))).toBe('PUBLIC_KEY_NOT_FOUND');
    expect(dbCalls()).toBe(afterFirst); // the miss is cached: 100 refusals, no query
    expect(verify).not.toHaveBeenCalled();
  });

  it('verifies the signature of a known key, once per request', async () => {
    const { store } = fakeStore([memberKey]);
    const { authenticate } = createAuthenticator(store, createAuthCache(store));
    const ok = stamped({ organizationId: org.id }, member);
    const who = await authenticate(ok.headers, ok.raw);
    expect(who.principal.userId).toBe('user-1');
    expect(verify).toHaveBeenCalledTimes(1);
    const forged = stamped({ organizationId: org.id }, member, { badSignature: true });
    expect(await codeOf(authenticate(forged.headers, forged.raw))).toBe('SIGNATURE_INVALID');
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('caches an unknown organization too, and forgets it with the organization topic', async () => {
    const { store, calls } = fakeStore([memberKey]);
    const cache = createAuthCache(store);
    const { authenticate } = createAuthenticator(store, cache);
    const req = stamped({ organizationId: 'no-such-org' }, member);
    for (let i = 0; i < 10; i++) expect(await codeOf(authenticate(req.headers, req.raw))).toBe('ORGANIZATION_NOT_FOUND');
    expect(calls.findById).toBe(1);
    cache.invalidate('organization:no-such-org');
    expect(await codeOf(authenticate(req.headers, req.raw))).toBe('ORGANIZATION_NOT_FOUND');
    expect(calls.findById).toBe(2);
    expect(verify).not.toHaveBeenCalled();
  });

  it('finds a key at once when its creation is announced (credential topic), though its miss was cached', async () => {
    const keys: ApiKey[] = [memberKey];
    const { store } = fakeStore(keys);
    const cache = createAuthCache(store);
    const { authenticate } = createAuthenticator(store, cache);
    const req = stamped({ organizationId: org.id }, stranger);
    expect(await codeOf(authenticate(req.headers, req.raw))).toBe('PUBLIC_KEY_NOT_FOUND');
    keys.push({ ...memberKey, id: 'key-2', userId: 'user-2', publicKey: stranger.publicKey });
    cache.invalidate('credential:user-2'); // what create_api_keys announces, heard through the change feed
    expect((await authenticate(req.headers, req.raw)).principal.userId).toBe('user-2');
    // '*' (the feed lost its connection) drops misses too.
    const other = crypto.generateP256KeyPair();
    const req2 = stamped({ organizationId: org.id }, other);
    expect(await codeOf(authenticate(req2.headers, req2.raw))).toBe('PUBLIC_KEY_NOT_FOUND');
    keys.push({ ...memberKey, id: 'key-3', userId: 'user-3', publicKey: other.publicKey });
    cache.invalidate('*');
    expect((await authenticate(req2.headers, req2.raw)).principal.userId).toBe('user-3');
  });

  it('does not record a miss that a change overtook (the holder lookup began before the key was announced)', async () => {
    const keys: ApiKey[] = [];
    const { store } = fakeStore(keys);
    const cache = createAuthCache(store);
    const slow = store.credentials.publicKeyHeld;
    store.credentials.publicKeyHeld = async (publicKey) => {
      const held = await slow(publicKey);
      keys.push({ ...memberKey, publicKey: stranger.publicKey });
      cache.invalidate('credential-added:user-1');
      return held;
    };
    const { authenticate, refuseCachedStranger } = createAuthenticator(store, cache);
    const req = stamped({ organizationId: org.id }, stranger);
    expect(await codeOf(authenticate(req.headers, req.raw))).toBe('PUBLIC_KEY_NOT_FOUND');
    store.credentials.publicKeyHeld = slow;
    expect(refuseCachedStranger(req.headers)).toBeUndefined();
    expect((await authenticate(req.headers, req.raw)).principal.userId).toBe('user-1');
  });

  it('does not record a miss that a change overtook (the organization\'s key lookup began before the key was announced)', async () => {
    // Held in another organization, so the holder lookup passes and the organization's own misses.
    const keys: ApiKey[] = [{ ...memberKey, id: 'key-elsewhere', organizationId: 'org-other', publicKey: stranger.publicKey }];
    const { store } = fakeStore(keys);
    const cache = createAuthCache(store);
    const slow = store.credentials.findApiKeys;
    // The key is created and announced while the lookup is in flight.
    store.credentials.findApiKeys = async (orgIds, publicKey) => {
      const found = await slow(orgIds, publicKey);
      keys.push({ ...memberKey, publicKey: stranger.publicKey });
      cache.invalidate('credential:user-1');
      return found;
    };
    const { authenticate } = createAuthenticator(store, cache);
    const req = stamped({ organizationId: org.id }, stranger);
    expect(await codeOf(authenticate(req.headers, req.raw))).toBe('PUBLIC_KEY_NOT_FOUND');
    store.credentials.findApiKeys = slow;
    expect((await authenticate(req.headers, req.raw)).principal.userId).toBe('user-1');
  });

  it('forgets a miss after missTtlMs, bounded in size', async () => {
    let t = 0;
    const { store, dbCalls } = fakeStore([memberKey]);
    const { authenticate } = createAuthenticator(store, createAuthCache(store, { now: () => t, missTtlMs: 1000, maxEntries: 2 }));
    const req = stamped({ organizationId: org.id }, stranger);
    await codeOf(authenticate(req.headers, req.raw));
    const n = dbCalls();
    t = 999;
    await codeOf(authenticate(req.headers, req.raw));
    expect(dbCalls()).toBe(n);
    t = 1000;
    await codeOf(authenticate(req.headers, req.raw));
    expect(dbCalls()).toBeGreaterThan(n);
  });

  it('refuses a body with an unstorable string before any lookup but the key holder\'s', async () => {
    const { store, calls, dbCalls } = fakeStore([memberKey]);
    const { authenticate } = createAuthenticator(store, createAuthCache(store));
    for (const body of [{ organizationId: '\u0000' }, { organizationId: org.id, parameters: { a: [{ b: 'x\ud800' }] } }]) {
      const req = stamped(body, member);
      const e = await authenticate(req.headers, req.raw).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(isAppError(e) && e.code).toBe('BAD_REQUEST');
    }
    // The holder lookup reads a hex public key; nothing of the body reached the store.
    expect(dbCalls()).toBe(calls.publicKeyHeld);
    expect(verify).not.toHaveBeenCalled();
  });

  it('refuses a validly stamped body that is not UTF-8 (0xff inside a string), before any lookup but the key holder\'s', async () => {
    const { store, calls, dbCalls } = fakeStore([memberKey]);
    const { authenticate } = createAuthenticator(store, createAuthCache(store));
    const req = stamped({ organizationId: org.id, parameters: { name: 'a_b' } }, member);
    const raw = Buffer.from(req.raw);
    raw[raw.indexOf('a_b') + 1] = 0xff;
    const signature = crypto.signP256(member.privateKey, raw);
    const header = Buffer.from(JSON.stringify({ publicKey: member.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature })).toString('base64url');
    const e = await authenticate({ 'x-stamp': header }, raw).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(isAppError(e) && e.code).toBe('BAD_REQUEST');
    expect(isAppError(e) && e.message).toBe('request body is not valid UTF-8');
    expect(dbCalls()).toBe(calls.publicKeyHeld);
  });
});

describe('a key nobody holds: refused on the key alone, whatever the body, and before the body is read once known', () => {
  it('answers PUBLIC_KEY_NOT_FOUND for bad JSON, an unknown organization or an unstorable string alike, after one lookup', async () => {
    const { store, calls, dbCalls } = fakeStore([memberKey]);
    const { authenticate } = createAuthenticator(store, createAuthCache(store));
    const bodies = [Buffer.from('{not json'), Buffer.from('{"organizationId":"no-such-org"}'), Buffer.from('{"organizationId":"\\u0000"}'), Buffer.from('[]')];
    for (const raw of bodies) {
      const header = Buffer.from(JSON.stringify({ publicKey: stranger.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: crypto.signP256(stranger.privateKey, raw) })).toString('base64url');
      expect(await codeOf(authenticate({ 'x-stamp': header }, raw))).toBe('PUBLIC_KEY_NOT_FOUND');
    }
    expect(calls.publicKeyHeld).toBe(1);
    expect(dbCalls()).toBe(1); // no organization or key lookup: the holder lookup answered, then its cached miss
    expect(verify).not.toHaveBeenCalled();
  });

  it('refuseCachedStranger: nothing until authenticate has found the key held by nobody, then the same error, from memory', async () => {
    const keys: ApiKey[] = [memberKey];
    const { store, dbCalls } = fakeStore(keys);
    const cache = createAuthCache(store);
    const { authenticate, refuseCachedStranger } = createAuthenticator(store, cache);
    const req = stamped({ organizationId: org.id }, stranger);
    expect(refuseCachedStranger(req.headers)).toBeUndefined(); // not known yet: the full check decides
    const first = await authenticate(req.headers, req.raw).then(
      () => undefined,
      (x: unknown) => x,
    );
    const n = dbCalls();
    const early = refuseCachedStranger(req.headers);
    expect(isAppError(early) && isAppError(first) && [early.code, early.message]).toEqual(isAppError(first) && [first.code, first.message]);
    expect(dbCalls()).toBe(n);
    // Only a lone API-key stamp: a session header or a second stamp header goes to the full check.
    expect(refuseCachedStranger({ ...req.headers, 'x-session': 'abc' })).toBeUndefined();
    expect(refuseCachedStranger({ ...req.headers, 'x-stamp-webauthn': '{}' })).toBeUndefined();
    expect(refuseCachedStranger({ 'x-stamp': 'not base64url!' })).toBeUndefined();
    // A held key is never refused early.
    const ok = stamped({ organizationId: org.id }, member);
    await authenticate(ok.headers, ok.raw);
    expect(refuseCachedStranger(ok.headers)).toBeUndefined();
    // A key that may have appeared (a session key, a new sub-organization's keys) is looked up again.
    keys.push({ ...memberKey, id: 'key-2', userId: 'user-2', publicKey: stranger.publicKey });
    cache.invalidate('credential-added:user-2');
    expect(refuseCachedStranger(req.headers)).toBeUndefined();
    expect((await authenticate(req.headers, req.raw)).principal.userId).toBe('user-2');
  });
});
