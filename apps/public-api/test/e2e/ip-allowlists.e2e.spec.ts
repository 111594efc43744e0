/**
 * IP allowlists end to end (issue 16 §2): set_ip_allowlist / remove_ip_allowlist / get_ip_allowlist
 * through the unmodified `@turnkey/sdk-server`, enforced on every stamped request. The server
 * trusts 127.0.0.1 as a proxy (LATCHKEY_TRUSTED_PROXIES), so a request from the test names its
 * client in X-Forwarded-For; a request from 127.0.0.2 (another loopback address, not trusted) has
 * its X-Forwarded-For ignored. Stamped raw requests carry the header; the SDK's come from 127.0.0.1.
 */
import { request as httpRequest } from 'node:http';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorResponse, rawRequest, uniqueName, type TRawResponse } from './e2e-helpers.js';
import { policyE2e, refusal, type TKeyPair, type TMember } from './policy-e2e-helpers.js';

let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
const sdk = (key: TKeyPair) => e2e.sdk(key);

/** A stamped POST of `body` to `path`, from the client `forwardedFor` (through the trusted proxy 127.0.0.1). */
async function stamped(key: TKeyPair, path: string, body: object, forwardedFor?: string): Promise<TRawResponse> {
  const text = JSON.stringify(body);
  const { stampHeaderName, stampHeaderValue } = await new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }).stamp(text);
  return rawRequest(`${latchkey.baseUrl}${path}`, {
    body: text,
    headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
  });
}
const whoami = (key: TKeyPair, forwardedFor?: string) => stamped(key, '/public/v1/query/whoami', { organizationId: e2e.orgId }, forwardedFor);

/** A stamped whoami sent from the local address 127.0.0.2 (not a trusted proxy), with an X-Forwarded-For. */
async function whoamiFrom127002(key: TKeyPair, forwardedFor: string): Promise<number> {
  const text = JSON.stringify({ organizationId: e2e.orgId });
  const { stampHeaderName, stampHeaderValue } = await new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }).stamp(text);
  const url = new URL(`${latchkey.baseUrl}/public/v1/query/whoami`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: '127.0.0.2', headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue, 'x-forwarded-for': forwardedFor } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** The 403 of an address outside a list: it names the rule set and nothing of the rules. */
function expectOutside(res: TRawResponse, scope: 'organization' | 'api-key'): void {
  const body = expectErrorResponse(res, 403, 7, 'REQUEST_NOT_AUTHORIZED');
  expect(body.message).toContain(scope === 'organization' ? `the IP allowlist of organization ${e2e.orgId}` : 'the IP allowlist of this API key');
  for (const leaked of ['203.0.113', '2001:db8', '127.0.0.1', 'office', 'loopback']) expect(body.message).not.toContain(leaked);
}

let member: TMember;

beforeAll(async () => {
  latchkey = await startLatchkey({ apps: ['public-api'], env: { LATCHKEY_TRUSTED_PROXIES: '127.0.0.1' } });
  e2e = policyE2e(latchkey);
  member = await e2e.member('allowlisted');
}, 120_000);

afterAll(async () => {
  await latchkey?.stop();
});

describe('organization-level allowlist', () => {
  it('starts empty and disabled: nothing is enforced', async () => {
    expect(await sdk(e2e.rootKey).getIpAllowlist({})).toEqual({ allowlist: { organizationId: e2e.orgId, rules: [], enabled: false, onEvaluationError: 'DENY' } });
    expect((await whoami(e2e.rootKey, '198.51.100.1')).status).toBe(200);
  });

  it('refuses bad rules with a 400 naming the field, and a list that would shut out the request setting it; nothing is written', async () => {
    const bad = await refusal(sdk(e2e.rootKey).setIpAllowlist({ rules: [{ cidr: '127.0.0.1/32' }, { cidr: '10.0.0.1/8' }] }));
    expect(bad.code).toBe(3);
    expect(bad.message).toContain('rules.1.cidr');
    expect(bad.message).toContain('network address');
    expect((await refusal(sdk(e2e.rootKey).setIpAllowlist({ rules: [{ cidr: 'office' }] }))).message).toContain('rules.0.cidr');
    expect((await refusal(sdk(e2e.rootKey).setIpAllowlist({ rules: [], onEvaluationError: 'MAYBE' }))).message).toContain('onEvaluationError');
    expect((await refusal(sdk(e2e.rootKey).setIpAllowlist({ rules: [{ cidr: '127.0.0.1' }, { cidr: '127.0.0.1' }] }))).message).toContain('listed twice');

    // The SDK's requests come from 127.0.0.1: a list without it would lock this caller out.
    const lockout = await refusal(sdk(e2e.rootKey).setIpAllowlist({ rules: [{ cidr: '203.0.113.0/24', label: 'office' }] }));
    expect(lockout.code).toBe(3);
    expect(lockout.message).toMatch(/organization-level allowlist would shut out the address this request comes from \(127\.0\.0\.1\)/);
    // Through the proxy from outside the list: the same refusal, naming that address.
    const viaProxy = await stamped(e2e.rootKey, '/public/v1/submit/set_ip_allowlist', {
      type: 'ACTIVITY_TYPE_SET_IP_ALLOWLIST',
      timestampMs: String(Date.now()),
      organizationId: e2e.orgId,
      parameters: { rules: [{ cidr: '127.0.0.1/32' }] },
    }, '198.51.100.20');
    expect(expectErrorResponse(viaProxy, 400, 3, 'REQUEST_INVALID').message).toContain('(198.51.100.20)');
    // An empty enabled list shuts out everyone, this caller included.
    expect((await refusal(sdk(e2e.rootKey).setIpAllowlist({ enabled: true, rules: [] }))).message).toContain('shut out');
    expect((await sdk(e2e.rootKey).getIpAllowlist({})).allowlist.rules).toEqual([]);
    expect((await whoami(e2e.rootKey, '198.51.100.1')).status).toBe(200);
  });

  it('enforces IPv4 and IPv6 rules on queries and activities, before any work, until disabled and removed', async () => {
    const before = Date.now();
    await sdk(e2e.rootKey).setIpAllowlist({
      rules: [
        { cidr: '127.0.0.1/32', label: 'loopback' },
        { cidr: '203.0.113.0/24', label: 'office' },
        { cidr: '2001:db8::/32' },
      ],
    });
    const { allowlist } = await sdk(e2e.rootKey).getIpAllowlist({});
    expect(allowlist).toMatchObject({ organizationId: e2e.orgId, enabled: true, onEvaluationError: 'DENY' });
    expect(allowlist.publicKey).toBeUndefined();
    expect(allowlist.rules.map((r) => [r.cidr, r.label])).toEqual([['127.0.0.1/32', 'loopback'], ['203.0.113.0/24', 'office'], ['2001:db8::/32', undefined]]);
    for (const r of allowlist.rules) expect(Number(r.createdAt)).toBeGreaterThanOrEqual(before - 1000);

    expect((await whoami(e2e.rootKey, '203.0.113.77')).status).toBe(200);
    expect((await whoami(e2e.rootKey, '2001:db8:1::5')).status).toBe(200);
    expect((await whoami(e2e.rootKey)).status).toBe(200);
    expectOutside(await whoami(e2e.rootKey, '198.51.100.1'), 'organization');
    expectOutside(await whoami(e2e.rootKey, '2001:db9::1'), 'organization');
    // Every user of the organization, not only the one who set it.
    expectOutside(await whoami(member.key, '198.51.100.1'), 'organization');
    // The X-Forwarded-For of a peer that is not a trusted proxy is ignored: 127.0.0.2 is the client.
    expect(await whoamiFrom127002(e2e.rootKey, '203.0.113.77')).toBe(403);

    // An activity from outside is refused before anything is written.
    const walletName = uniqueName('outside');
    const outside = await stamped(
      e2e.rootKey,
      '/public/v1/submit/create_wallet',
      { type: 'ACTIVITY_TYPE_CREATE_WALLET', timestampMs: String(Date.now()), organizationId: e2e.orgId, parameters: { walletName, accounts: [] } },
      '198.51.100.1',
    );
    expectOutside(outside, 'organization');
    expect((await sdk(e2e.rootKey).getWallets({})).wallets.map((w) => w.walletName)).not.toContain(walletName);

    // onEvaluationError: an address that cannot be read is denied by default, let through with ALLOW.
    expectOutside(await whoami(e2e.rootKey, 'not-an-address'), 'organization');
    await sdk(e2e.rootKey).setIpAllowlist({ onEvaluationError: 'ALLOW' });
    expect((await sdk(e2e.rootKey).getIpAllowlist({})).allowlist.rules).toHaveLength(3);
    expect((await whoami(e2e.rootKey, 'not-an-address')).status).toBe(200);
    expectOutside(await whoami(e2e.rootKey, '198.51.100.1'), 'organization');

    // Disabled: kept, not enforced. Removed: gone.
    await sdk(e2e.rootKey).setIpAllowlist({ enabled: false });
    expect((await sdk(e2e.rootKey).getIpAllowlist({})).allowlist).toMatchObject({ enabled: false, onEvaluationError: 'ALLOW' });
    expect((await whoami(e2e.rootKey, '198.51.100.1')).status).toBe(200);
    await sdk(e2e.rootKey).removeIpAllowlist({});
    expect((await sdk(e2e.rootKey).getIpAllowlist({})).allowlist).toEqual({ organizationId: e2e.orgId, rules: [], enabled: false, onEvaluationError: 'DENY' });
    expect((await refusal(sdk(e2e.rootKey).removeIpAllowlist({}))).message).toContain('has no organization-level IP allowlist');
  });
});

describe('API key allowlists', () => {
  it('hold for that key only; refuse enabled, an unknown key and locking out the signing key', async () => {
    expect((await refusal(sdk(e2e.rootKey).setIpAllowlist({ publicKey: member.key.publicKey, enabled: true, rules: [{ cidr: '203.0.113.0/24' }] }))).message).toContain('enabled applies only to the organization-level allowlist');
    const unknown = await refusal(sdk(e2e.rootKey).setIpAllowlist({ publicKey: '02'.padEnd(66, 'a'), rules: [{ cidr: '203.0.113.0/24' }] }));
    expect(unknown.code).toBe(5);
    expect((await refusal(sdk(e2e.rootKey).getIpAllowlist({ publicKey: member.key.publicKey }))).code).toBe(5);
    // The root user's own key, from 127.0.0.1, with a list that leaves 127.0.0.1 out.
    expect((await refusal(sdk(e2e.rootKey).setIpAllowlist({ publicKey: e2e.rootKey.publicKey, rules: [{ cidr: '203.0.113.0/24' }] }))).message).toContain('the allowlist of the API key signing this request would shut out');

    await sdk(e2e.rootKey).setIpAllowlist({ publicKey: member.key.publicKey, rules: [{ cidr: '203.0.113.0/24', label: 'office' }] });
    const { allowlist } = await sdk(e2e.rootKey).getIpAllowlist({ publicKey: member.key.publicKey });
    expect(allowlist).toMatchObject({ organizationId: e2e.orgId, publicKey: member.key.publicKey, onEvaluationError: 'DENY', rules: [{ cidr: '203.0.113.0/24', label: 'office' }] });
    expect(allowlist.enabled).toBeUndefined();

    expectOutside(await whoami(member.key), 'api-key');
    expect((await refusal(sdk(member.key).getWhoami({}))).code).toBe(7);
    expect((await whoami(member.key, '203.0.113.5')).status).toBe(200);
    // Other keys of the organization are not bound by it.
    expect((await whoami(e2e.rootKey, '198.51.100.1')).status).toBe(200);

    await sdk(e2e.rootKey).removeIpAllowlist({ publicKey: member.key.publicKey });
    expect((await whoami(member.key)).status).toBe(200);
    expect((await refusal(sdk(e2e.rootKey).removeIpAllowlist({ publicKey: member.key.publicKey }))).code).toBe(5);
  });

  it('setting a list needs the root quorum or a policy: a plain member is refused', async () => {
    const r = await refusal(sdk(member.key).setIpAllowlist({ rules: [{ cidr: '0.0.0.0/0' }] }));
    expect(r.code).toBe(7);
    expect((await sdk(e2e.rootKey).getIpAllowlist({})).allowlist.rules).toEqual([]);
  });
});
