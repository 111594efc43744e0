/**
 * Opaque secrets end to end (issue 16 §6): init_import_secrets and delete_secrets through
 * `@turnkey/http` (sdk-server 5 has no method for them), import_secrets, export_secrets and
 * list_secrets through the unmodified `@turnkey/sdk-server`; the secret is encrypted and decrypted
 * by `@turnkey/crypto`'s encryptSecretToBundle / decryptSecretBundle, pinned to this server's
 * signer key. Refusals (bad bundle, a target that is not the caller's, taken names, unknown ids)
 * are 4xx naming the field and write nothing; the secret is in neither the database nor the logs.
 */
import { decryptSecretBundle, encryptSecretToBundle, generateP256KeyPair } from '@turnkey/crypto';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpPublicSchema, findSecrets, uniqueName, type TSecret } from './e2e-helpers.js';
import { policyE2e, refusal, type TKeyPair, type TMember } from './policy-e2e-helpers.js';

const SUITE = 'TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1' as const;

let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
let member: TMember;
/** Every secret value that went through the platform here, for the scan at the end. */
const passed: TSecret[] = [];

beforeAll(async () => {
  // A slow start is not a failure here (the machine's cores are shared): wait up to 110 s.
  latchkey = await startLatchkey({ apps: ['public-api'], env: { LATCHKEY_LOG_LEVEL: 'trace' }, timeoutMs: 110_000 });
  e2e = policyE2e(latchkey);
  member = await e2e.member('secrets-member');
}, 150_000);

afterAll(async () => {
  await latchkey?.stop();
});

/** A secret value worth scanning for (long, unique), remembered with its hex and base64 forms. */
function newSecret(label: string): string {
  const value = `${label}-${generateP256KeyPair().privateKey.slice(0, 40)}-päss`;
  const bytes = Buffer.from(value, 'utf8');
  passed.push({ label, value }, { label: `${label} (utf-8 hex)`, value: bytes.toString('hex') }, { label: `${label} (base64)`, value: bytes.toString('base64') });
  return value;
}

async function initTargets(key: TKeyPair, numSecrets: number): Promise<string[]> {
  const res = await e2e.http(key).initImportSecrets({
    type: 'ACTIVITY_TYPE_INIT_IMPORT_SECRETS',
    timestampMs: String(Date.now()),
    organizationId: e2e.orgId,
    parameters: { encryptionSuite: SUITE, numSecrets },
  });
  expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  return res.activity.result.initImportSecretsResult!.enclaveTargetMessages;
}

const encrypt = (plaintext: string, ingressTargetBundle: string) =>
  encryptSecretToBundle({ plaintext, ingressTargetBundle, organizationId: e2e.orgId, dangerouslyOverrideSignerPublicKey: latchkey.signerPublicKey });

async function exportOne(key: TKeyPair, secretId: string): Promise<string> {
  const client = generateP256KeyPair();
  const { secretPayloads } = await e2e.sdk(key).exportSecrets({ secrets: [{ secretId, targetPublicKey: client.publicKeyUncompressed, encryptionSuite: SUITE }] });
  expect(secretPayloads).toHaveLength(1);
  return decryptSecretBundle({ secretPayload: secretPayloads[0]!, embeddedPrivateKey: client.privateKey, organizationId: e2e.orgId, dangerouslyOverrideSignerPublicKey: latchkey.signerPublicKey });
}

const deleteSecrets = (key: TKeyPair, secretIds: string[]) =>
  e2e.http(key).deleteSecrets({ type: 'ACTIVITY_TYPE_DELETE_SECRETS', timestampMs: String(Date.now()), organizationId: e2e.orgId, parameters: { secretIds } });

const listedIds = async () => (await e2e.sdk(e2e.rootKey).listSecrets({ paginationOptions: { limit: '100' } })).secrets.map((s) => s.secretId);

describe('import, list, export, delete', () => {
  it('round-trips two secrets through @turnkey/crypto: imported by name with static properties, listed newest first, exported, deleted', async () => {
    const [t1, t2] = await initTargets(e2e.rootKey, 2);
    expect(JSON.parse(t1!)).toMatchObject({ version: 'v1.0.0', enclaveQuorumPublic: latchkey.signerPublicKey });
    const apiToken = newSecret('api token');
    const password = newSecret('password');
    const a = await encrypt(apiToken, t1!);
    const b = await encrypt(password, t2!);
    const name = uniqueName('stripe-key');
    const imported = await e2e.sdk(e2e.rootKey).importSecrets({
      secrets: [
        { name, secretPayload: a.secretPayload, targetPublicKey: a.targetPublicKey, encryptionSuite: SUITE, staticProperties: [{ key: 'service', value: 'stripe' }] },
        { secretPayload: b.secretPayload, targetPublicKey: b.targetPublicKey, encryptionSuite: SUITE },
      ],
    });
    expect(imported.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(imported.activity.type).toBe('ACTIVITY_TYPE_IMPORT_SECRETS');
    const [first, second] = imported.secretIds;

    const listed = await e2e.sdk(e2e.rootKey).listSecrets({});
    expect(listed.secrets.slice(0, 2).map((s) => s.secretId)).toEqual([second, first]);
    const meta = listed.secrets.find((s) => s.secretId === first)!;
    expect(meta).toEqual({ secretId: first, name, staticProperties: [{ key: 'service', value: 'stripe' }], createdAtUnixMs: expect.stringMatching(/^\d{13}$/) });
    expect(listed.secrets.find((s) => s.secretId === second)).not.toHaveProperty('name');
    // Paged: one at a time, then after the first.
    const page1 = await e2e.sdk(e2e.rootKey).listSecrets({ paginationOptions: { limit: '1' } });
    expect(page1.secrets.map((s) => s.secretId)).toEqual([second]);
    const page2 = await e2e.sdk(e2e.rootKey).listSecrets({ paginationOptions: { limit: '1', after: second! } });
    expect(page2.secrets.map((s) => s.secretId)).toEqual([first]);

    expect(await exportOne(e2e.rootKey, first!)).toBe(apiToken);
    // Two in one export, each to its own key, in the order asked.
    const [k1, k2] = [generateP256KeyPair(), generateP256KeyPair()];
    const both = await e2e.sdk(e2e.rootKey).exportSecrets({
      secrets: [
        { secretId: second!, targetPublicKey: k1.publicKey, encryptionSuite: SUITE },
        { secretId: first!, targetPublicKey: k2.publicKeyUncompressed, encryptionSuite: SUITE },
      ],
    });
    const open = (secretPayload: string, k: typeof k1) => decryptSecretBundle({ secretPayload, embeddedPrivateKey: k.privateKey, organizationId: e2e.orgId, dangerouslyOverrideSignerPublicKey: latchkey.signerPublicKey });
    expect([await open(both.secretPayloads[0]!, k1), await open(both.secretPayloads[1]!, k2)]).toEqual([password, apiToken]);

    const deleted = await deleteSecrets(e2e.rootKey, [first!, second!]);
    expect(deleted.activity.result.deleteSecretsResult?.secretIds).toEqual([first, second]);
    expect(await listedIds()).not.toContain(first);
    const gone = await refusal(e2e.sdk(e2e.rootKey).exportSecrets({ secrets: [{ secretId: first!, targetPublicKey: k1.publicKey, encryptionSuite: SUITE }] }));
    expect(gone.code).toBe(5);
    expect(gone.message).toContain('secrets.0.secretId');
  });
});

describe('refusals write nothing', () => {
  it('is policy-checked: a user without an allowing policy cannot export (before any policy names secrets)', async () => {
    const stranger = await e2e.member('no-secrets');
    const [t] = await initTargets(e2e.rootKey, 1);
    const { secretIds } = await e2e.sdk(e2e.rootKey).importSecrets({ secrets: [{ ...(await encrypt(newSecret('guarded'), t!)), encryptionSuite: SUITE }] });
    const r = await refusal(e2e.sdk(stranger.key).exportSecrets({ secrets: [{ secretId: secretIds[0]!, targetPublicKey: generateP256KeyPair().publicKey, encryptionSuite: SUITE }] }));
    expect(r.code).toBe(7);
    expect(r.codes).toEqual(['REQUEST_NOT_AUTHORIZED']);
  });

  it('a bad bundle: not JSON, or encrypted to another target — 400 naming secretPayload; the target stays usable', async () => {
    const [target, other] = await initTargets(e2e.rootKey, 2);
    const value = newSecret('refused then imported');
    const good = await encrypt(value, target!);
    const before = await listedIds();
    const notJson = await refusal(e2e.sdk(e2e.rootKey).importSecrets({ secrets: [{ secretPayload: 'not a bundle', targetPublicKey: good.targetPublicKey, encryptionSuite: SUITE }] }));
    expect(notJson.code).toBe(3);
    expect(notJson.message).toContain('secrets.0.secretPayload');
    // Encrypted to `other` but presented with `target`'s key: it does not open.
    const wrong = await encrypt(value, other!);
    const mismatched = await refusal(e2e.sdk(e2e.rootKey).importSecrets({ secrets: [{ secretPayload: wrong.secretPayload, targetPublicKey: good.targetPublicKey, encryptionSuite: SUITE }] }));
    expect(mismatched.code).toBe(3);
    expect(mismatched.message).toContain('secrets.0.secretPayload');
    expect(mismatched.message).not.toContain(value);
    // All or nothing: a good secret beside a bad one is not imported either.
    const mixed = await refusal(
      e2e.sdk(e2e.rootKey).importSecrets({
        secrets: [
          { secretPayload: good.secretPayload, targetPublicKey: good.targetPublicKey, encryptionSuite: SUITE },
          { secretPayload: 'null', targetPublicKey: wrong.targetPublicKey, encryptionSuite: SUITE },
        ],
      }),
    );
    expect(mixed.message).toContain('secrets.1.secretPayload');
    expect(await listedIds()).toEqual(before);
    // The target was not spent by the refusals: the good bundle still imports, once.
    const { secretIds } = await e2e.sdk(e2e.rootKey).importSecrets({ secrets: [{ secretPayload: good.secretPayload, targetPublicKey: good.targetPublicKey, encryptionSuite: SUITE }] });
    expect(await exportOne(e2e.rootKey, secretIds[0]!)).toBe(value);
    const again = await refusal(e2e.sdk(e2e.rootKey).importSecrets({ secrets: [{ secretPayload: good.secretPayload, targetPublicKey: good.targetPublicKey, encryptionSuite: SUITE }] }));
    expect(again.message).toContain('secrets.0.targetPublicKey');
    expect(again.message).toContain('init_import_secrets');
  });

  it("another user's target, an unknown target, a taken name, bad suites and counts — 400 naming the field", async () => {
    const [rootTarget] = await initTargets(e2e.rootKey, 1);
    const sealed = await encrypt(newSecret('other user target'), rootTarget!);
    // The member may import (a policy allows it) but cannot use the root user's target.
    await e2e.sdk(e2e.rootKey).createPolicy({ policyName: uniqueName('member secrets'), effect: 'EFFECT_ALLOW', consensus: `approvers.any(user, user.id == '${member.userId}')`, condition: "activity.resource == 'SECRET'", notes: '' });
    const foreign = await refusal(e2e.sdk(member.key).importSecrets({ secrets: [{ ...sealed, encryptionSuite: SUITE }] }));
    expect(foreign.code).toBe(3);
    expect(foreign.message).toContain('secrets.0.targetPublicKey');
    const unknown = await refusal(e2e.sdk(e2e.rootKey).importSecrets({ secrets: [{ secretPayload: sealed.secretPayload, targetPublicKey: generateP256KeyPair().publicKeyUncompressed, encryptionSuite: SUITE }] }));
    expect(unknown.message).toContain('secrets.0.targetPublicKey');

    const name = uniqueName('taken');
    const [t] = await initTargets(e2e.rootKey, 1);
    const first = await encrypt(newSecret('named'), t!);
    await e2e.sdk(e2e.rootKey).importSecrets({ secrets: [{ name, ...first, encryptionSuite: SUITE }] });
    const [t2] = await initTargets(e2e.rootKey, 1);
    const second = await encrypt(newSecret('same name'), t2!);
    const taken = await refusal(e2e.sdk(e2e.rootKey).importSecrets({ secrets: [{ name, ...second, encryptionSuite: SUITE }] }));
    expect(taken.code).toBe(3);
    expect(taken.message).toContain('secrets.0.name');

    const suite = await refusal(e2e.sdk(e2e.rootKey).importSecrets({ secrets: [{ ...second, encryptionSuite: 'TRANSPORT_ENCRYPTION_SUITE_NONE' as typeof SUITE }] }));
    expect(suite.message).toContain('encryptionSuite');
    const none = await refusal(e2e.http(e2e.rootKey).initImportSecrets({ type: 'ACTIVITY_TYPE_INIT_IMPORT_SECRETS', timestampMs: String(Date.now()), organizationId: e2e.orgId, parameters: { encryptionSuite: SUITE, numSecrets: 0 } }));
    expect(none.code).toBe(3);
    expect(none.message).toContain('numSecrets');
    const tooMany = await refusal(e2e.http(e2e.rootKey).initImportSecrets({ type: 'ACTIVITY_TYPE_INIT_IMPORT_SECRETS', timestampMs: String(Date.now()), organizationId: e2e.orgId, parameters: { encryptionSuite: SUITE, numSecrets: 33 } }));
    expect(tooMany.message).toContain('numSecrets');
  });

  it('delete: an unknown id is a 404 naming it and nothing is deleted; a repeated id is a 400', async () => {
    const [t] = await initTargets(e2e.rootKey, 1);
    const { secretIds } = await e2e.sdk(e2e.rootKey).importSecrets({ secrets: [{ ...(await encrypt(newSecret('kept'), t!)), encryptionSuite: SUITE }] });
    const missing = '00000000-0000-4000-8000-000000000000';
    const r = await refusal(deleteSecrets(e2e.rootKey, [secretIds[0]!, missing]));
    expect(r.code).toBe(5);
    expect(r.message).toContain(`secretIds.1`);
    expect(r.message).toContain(missing);
    expect(await listedIds()).toContain(secretIds[0]);
    const twice = await refusal(deleteSecrets(e2e.rootKey, [secretIds[0]!, secretIds[0]!]));
    expect(twice.code).toBe(3);
    expect(twice.message).toContain('secretIds');
    expect(await listedIds()).toContain(secretIds[0]);
  });

});

describe('secrets scan', () => {
  it('no secret value that passed through — as text, hex or base64 — is in the database or the trace-level logs', async () => {
    expect(passed.length).toBeGreaterThanOrEqual(3 * 8);
    const { dump } = await dumpPublicSchema(await latchkey.databaseUrl());
    // The dump holds the secrets' rows (so a plaintext there would be seen) …
    expect(dump).toMatch(/^secrets: /m);
    // … and the scanner finds a planted value.
    expect(findSecrets({ dump: `${dump}\n${passed[0]!.value}` }, passed)).toHaveLength(1);
    expect(findSecrets({ database: dump, logs: latchkey.output() }, passed)).toEqual([]);
    expect(latchkey.output()).toContain('/public/v1/submit/import_secrets"');
  });
});
