/** The signer against §B6's published vector and the real `verifyTurnkeyWebhookSignature`. */
import { verifyTurnkeyWebhookSignature } from '@turnkey/crypto';
import { describe, expect, it } from 'vitest';
import { buildWebhookJwks, generateWebhookSigningKey, WEBHOOK_JWKS_CACHE_CONTROL } from './webhook-jwks.js';
import { createWebhookSigner, signWebhook, webhookHeaders } from './sign-webhook.js';

const SEED = Uint8Array.from({ length: 32 }, (_, i) => i);
const VECTOR = {
  keyId: 'webhook-key-1',
  eventId: 'evt_123',
  timestampMs: 1700000000000,
  body: '{"type":"activity.created","data":{"id":"act_123"}}',
  publicKey: '03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8',
  x: 'A6EHv_POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg',
  signature: '99c87f03e9254ed35896a394daa264f30d87574c6f4187e861fe136e4a15b50b5f43052a1a4f506d6faec7f699e42bfe40d523f5040946984e6c95497dc67a0f',
};

const vectorSigner = () => createWebhookSigner(VECTOR.keyId, SEED);
const vectorHeaders = () =>
  webhookHeaders({ signer: vectorSigner(), timestampMs: VECTOR.timestampMs, eventId: VECTOR.eventId, body: Buffer.from(VECTOR.body), eventType: 'ACTIVITY_UPDATES', organizationId: 'org-1' });

describe('webhook signing (§B6 vector)', () => {
  it('derives the published public key and JWKS x', () => {
    expect(vectorSigner().publicKeyHex).toBe(VECTOR.publicKey);
    expect(buildWebhookJwks([{ keyId: VECTOR.keyId, publicKeyHex: VECTOR.publicKey }]).body.keys[0]).toEqual({
      kid: 'webhook-key-1',
      kty: 'OKP',
      crv: 'Ed25519',
      alg: 'EdDSA',
      use: 'sig',
      x: VECTOR.x,
      turnkey_signature_algorithm: 'ed25519',
      turnkey_signature_version: 'v1',
    });
  });

  it('produces the published signature, lowercase hex', () => {
    expect(signWebhook({ signer: vectorSigner(), timestampMs: VECTOR.timestampMs, eventId: VECTOR.eventId, body: Buffer.from(VECTOR.body) })).toBe(VECTOR.signature);
  });

  it('emits exactly the §B2 headers', () => {
    expect(vectorHeaders()).toEqual({
      'Content-Type': 'application/json',
      'X-Turnkey-Organization-Id': 'org-1',
      'X-Turnkey-Event-Type': 'ACTIVITY_UPDATES',
      'X-Turnkey-Timestamp': '1700000000000',
      'X-Turnkey-Webhook-Version': '1',
      'X-Turnkey-Event-Id': 'evt_123',
      'X-Turnkey-Signature-Key-Id': 'webhook-key-1',
      'X-Turnkey-Signature-Algorithm': 'ed25519',
      'X-Turnkey-Signature-Version': 'v1',
      'X-Turnkey-Signature': VECTOR.signature,
    });
  });

  it('verifies with @turnkey/crypto, and fails on a tampered byte, a stale timestamp or another key', () => {
    const verificationKeys = [{ keyId: VECTOR.keyId, publicKey: VECTOR.publicKey, algorithm: 'ed25519' as const }];
    const check = (body: string, nowMs = 1700000001000, keys = verificationKeys) =>
      verifyTurnkeyWebhookSignature({ headers: vectorHeaders(), body, verificationKeys: keys, maxTimestampAgeMs: 300_000, nowMs });
    expect(check(VECTOR.body)).toMatchObject({ ok: true, eventId: 'evt_123', keyId: 'webhook-key-1', timestampMs: 1700000000000 });
    expect(check(VECTOR.body.replace('act_123', 'act_124'))).toMatchObject({ ok: false, reason: 'invalid_signature' });
    expect(check(VECTOR.body, VECTOR.timestampMs - 300_001)).toMatchObject({ ok: false, reason: 'stale_timestamp' });
    const other = generateWebhookSigningKey();
    expect(check(VECTOR.body, undefined, [{ keyId: VECTOR.keyId, publicKey: other.signer.publicKeyHex, algorithm: 'ed25519' }])).toMatchObject({ ok: false, reason: 'invalid_signature' });
  });

  it('signs generated keys verifiably, each attempt with its own timestamp', () => {
    const k = generateWebhookSigningKey(new Date('2026-11-25T00:00:00Z'));
    expect(k.keyId).toMatch(/^whk_20261125_[0-9a-f]{8}$/);
    const body = new Uint8Array(Buffer.from('{"id":"a"}'));
    for (const timestampMs of [Date.now(), Date.now() + 1500]) {
      const headers = webhookHeaders({ signer: k.signer, timestampMs, eventId: 'evt_x', body, eventType: 'ACTIVITY_UPDATES', organizationId: 'o' });
      const r = verifyTurnkeyWebhookSignature({ headers, body, verificationKeys: [{ keyId: k.keyId, publicKey: k.signer.publicKeyHex }], maxTimestampAgeMs: 300_000, nowMs: timestampMs });
      expect(r.ok).toBe(true);
    }
    expect(buildWebhookJwks([]).headers['Cache-Control']).toBe(WEBHOOK_JWKS_CACHE_CONTROL);
  });

  it('refuses ids that would make the signed string ambiguous', () => {
    expect(() => createWebhookSigner('a.b', SEED)).toThrow(/keyId/);
    expect(() => signWebhook({ signer: vectorSigner(), timestampMs: 1, eventId: '', body: new Uint8Array() })).toThrow(/eventId/);
    expect(() => signWebhook({ signer: vectorSigner(), timestampMs: 1.5, eventId: 'e', body: new Uint8Array() })).toThrow(/timestampMs/);
    expect(() => createWebhookSigner('k', new Uint8Array(31))).toThrow(/32 bytes/);
  });
});
