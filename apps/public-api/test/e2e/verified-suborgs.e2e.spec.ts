/**
 * list_verified_suborgs (`/public/v1/query/list_verified_suborgs`, sdk-server's
 * `getVerifiedSubOrgIds`) and list_suborgs' OIDC_CLAIMS filter, driven by the unmodified
 * `@turnkey/sdk-server` against a real Latchkey (the test kit's, its OTP mail captured in memory).
 * A sub-organization is found by a contact only once its user proved it with a verification
 * token: at sign-up or at an OTP login; a contact merely typed in, or changed later, is not.
 */
import { encryptOtpCodeToBundle, generateP256KeyPair, verifyOtpVerificationToken } from '@turnkey/crypto';
import { Turnkey } from '@turnkey/sdk-server';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientSignature, turnkeyErrorCodes, uniqueName } from './e2e-helpers.js';

type TKeyPair = { publicKey: string; privateKey: string };

let latchkey: TLatchkey;
let parentOrgId: string;
let root: ReturnType<Turnkey['apiClient']>;

const clientFor = (key: TKeyPair, organizationId: string) =>
  new Turnkey({ apiBaseUrl: latchkey.baseUrl, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey, defaultOrganizationId: organizationId }).apiClient();
const newEmail = (p: string) => `${uniqueName(p)}@example.com`.toLowerCase();
const verifiedIds = async (filterType: string, filterValue: string) => (await root.getVerifiedSubOrgIds({ filterType, filterValue })).organizationIds;

/** init_otp at the parent → the mailed code → verify_otp bound to `key`: a verification token. */
async function otpToken(email: string, key: TKeyPair): Promise<{ verificationToken: string; tokenId: string }> {
  const init = await root.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: email, appName: 'E2E' });
  const mail = await latchkey.mail.next();
  expect(mail.to).toBe(email);
  const encryptedOtpBundle = await encryptOtpCodeToBundle(mail.code!, init.otpEncryptionTargetBundle, key.publicKey, latchkey.bootstrap.otpVerifierPublicKey);
  const { verificationToken } = await root.verifyOtp({ otpId: init.otpId, encryptedOtpBundle });
  return { verificationToken, tokenId: (await verifyOtpVerificationToken(verificationToken, latchkey.bootstrap.otpVerifierPublicKey)).id };
}

/** A sub-organization whose one user has `email`; with a token (and its signed sign-up) when given. */
async function signUp(email: string, proof?: { verificationToken: string; tokenId: string; key: TKeyPair }, oidcClaims?: { iss: string; sub: string; aud: string }) {
  const message = proof && JSON.stringify({ signupV2: { apiKeys: [], authenticators: [], oauthProviders: [], email }, tokenId: proof.tokenId, type: 'USAGE_TYPE_SIGNUP' });
  const r = await root.createSubOrganization({
    subOrganizationName: uniqueName('verified'),
    rootQuorumThreshold: 1,
    rootUsers: [{ userName: email, userEmail: email, apiKeys: [], authenticators: [], oauthProviders: oidcClaims ? [{ providerName: 'idp', oidcClaims }] : [] }],
    ...(proof ? { verificationToken: proof.verificationToken, clientSignature: clientSignature(proof.key, message!) } : {}),
  });
  return { subOrganizationId: r.subOrganizationId, userId: r.rootUserIds![0]! };
}

async function refusal(p: Promise<unknown>): Promise<{ message: string; codes: string[] }> {
  try {
    await p;
  } catch (e) {
    const err = e as { message: string; details?: unknown[] | null };
    return { message: err.message, codes: turnkeyErrorCodes(err.details ?? null) };
  }
  throw new Error('expected a refusal');
}

beforeAll(async () => {
  latchkey = await startLatchkey({ apps: ['public-api'] });
  parentOrgId = latchkey.organizationId;
  root = clientFor({ publicKey: latchkey.apiPublicKey, privateKey: latchkey.apiPrivateKey }, parentOrgId);
});
afterAll(async () => {
  await latchkey?.stop();
});

describe('list_verified_suborgs', () => {
  it('finds a sub-organization by an e-mail its user proved at sign-up, in any case; not one whose e-mail was only typed in', async () => {
    const proved = newEmail('proved');
    const key = generateP256KeyPair();
    const a = await signUp(proved, { ...(await otpToken(proved, key)), key });
    const typed = newEmail('typed');
    const b = await signUp(typed);

    expect(await verifiedIds('EMAIL', proved.toUpperCase())).toEqual([a.subOrganizationId]);
    expect(await verifiedIds('EMAIL', typed)).toEqual([]);
    // list_suborgs, by contrast, finds both.
    expect((await root.getSubOrgIds({ filterType: 'EMAIL', filterValue: typed })).organizationIds).toEqual([b.subOrganizationId]);
    // No filter: every sub-organization with a verified contact, paged like list_suborgs.
    const all = (await root.getVerifiedSubOrgIds({})).organizationIds;
    expect(all).toContain(a.subOrganizationId);
    expect(all).not.toContain(b.subOrganizationId);
    expect((await root.getVerifiedSubOrgIds({ paginationOptions: { limit: '1', before: a.subOrganizationId } })).organizationIds).not.toContain(a.subOrganizationId);
  });

  it('an OTP login proves the e-mail; changing it leaves the new address unverified and the old one gone', async () => {
    const email = newEmail('login');
    const sub = await signUp(email);
    expect(await verifiedIds('EMAIL', email)).toEqual([]);

    const tokenKey = generateP256KeyPair();
    const session = generateP256KeyPair();
    const { verificationToken, tokenId } = await otpToken(email, tokenKey);
    const login = await root.otpLogin({
      organizationId: parentOrgId, // a backend aimed at the parent: the sub-organization is found from the token
      verificationToken,
      publicKey: session.publicKey,
      clientSignature: clientSignature(tokenKey, JSON.stringify({ login: { publicKey: session.publicKey }, tokenId, type: 'USAGE_TYPE_LOGIN' })),
    });
    expect(login.session).toBeTruthy();
    expect(await verifiedIds('EMAIL', email)).toEqual([sub.subOrganizationId]);

    // The user changes the address with the session key: neither address is a verified one now.
    const changed = newEmail('changed');
    await clientFor(session, sub.subOrganizationId).updateUser({ userId: sub.userId, userEmail: changed });
    expect(await verifiedIds('EMAIL', email)).toEqual([]);
    expect(await verifiedIds('EMAIL', changed)).toEqual([]);
    expect((await root.getSubOrgIds({ filterType: 'EMAIL', filterValue: changed })).organizationIds).toEqual([sub.subOrganizationId]);
  });

  it('refuses a filter it does not know (400 naming the ones it takes) and half a filter', async () => {
    const bad = await refusal(root.getVerifiedSubOrgIds({ filterType: 'PUBLIC_KEY', filterValue: generateP256KeyPair().publicKey }));
    expect(bad.message).toMatch(/filterType/);
    expect(bad.message).toMatch(/EMAIL, PHONE_NUMBER/);
    expect((await refusal(root.getVerifiedSubOrgIds({ filterType: 'EMAIL' }))).message).toMatch(/filterType and filterValue go together/);

  });
});

describe('list_suborgs by OIDC_CLAIMS (a Latchkey extension; what @turnkey/core sends the auth proxy)', () => {
  it('finds the sub-organization holding exactly that issuer, subject and audience; refuses a value that is not the claims JSON', async () => {
    const claims = { iss: 'https://accounts.google.com', sub: uniqueName('sub'), aud: 'app-client-id' };
    const sub = await signUp(newEmail('claims'), undefined, claims);
    const byClaims = async (c: object) => (await root.getSubOrgIds({ filterType: 'OIDC_CLAIMS', filterValue: JSON.stringify(c) })).organizationIds;
    expect(await byClaims(claims)).toEqual([sub.subOrganizationId]);
    expect(await byClaims({ ...claims, aud: 'another-app' })).toEqual([]);
    expect(await byClaims({ ...claims, sub: 'someone-else' })).toEqual([]);
    for (const value of ['not json', JSON.stringify({ iss: claims.iss, sub: claims.sub })]) {
      const r = await refusal(root.getSubOrgIds({ filterType: 'OIDC_CLAIMS', filterValue: value }));
      expect(r.message).toMatch(/OIDC_CLAIMS takes the JSON/);
    }
  });
});
