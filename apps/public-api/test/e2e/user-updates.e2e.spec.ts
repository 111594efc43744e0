/**
 * update_user_name (issue 16 §7) through the unmodified `@turnkey/sdk-server`: a rename shows in
 * get_user and at once in the renamed user's whoami (its cached row dropped); a blank name, an
 * unknown user and a caller without a policy are refused, and nothing changes.
 * update_user_email / update_user_phone_number: a new contact is verified only with a
 * verification token for it (init_otp → verify_otp, the code from the captured mail or SMS); a
 * user changing their own must bring one; the root user may set another's unverified.
 */
import { encryptOtpCodeToBundle, generateP256KeyPair } from '@turnkey/crypto';
import { Turnkey } from '@turnkey/sdk-server';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from './e2e-helpers.js';
import { policyE2e, refusal, type TMember } from './policy-e2e-helpers.js';

let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
let alice: TMember;
let bob: TMember;

beforeAll(async () => {
  latchkey = await startLatchkey({ apps: ['public-api'], timeoutMs: 110_000 });
  e2e = policyE2e(latchkey);
  [alice, bob] = [await e2e.member('alice'), await e2e.member('bob')];
}, 120_000);

afterAll(async () => {
  await latchkey?.stop();
});

const nameOf = async (userId: string) => (await e2e.sdk(e2e.rootKey).getUser({ userId })).user.userName;

describe('update_user_name', () => {
  it('renames a user; the renamed user sees it in whoami at once', async () => {
    // Warm the cached user row first, so a stale cache would show.
    const before = await e2e.sdk(alice.key).getWhoami({});
    const renamed = uniqueName('Alice Liddell');
    const out = await e2e.sdk(e2e.rootKey).updateUserName({ userId: alice.userId, userName: renamed });
    expect(out.userId).toBe(alice.userId);
    expect(out.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(out.activity.type).toBe('ACTIVITY_TYPE_UPDATE_USER_NAME');
    expect(await nameOf(alice.userId)).toBe(renamed);
    expect(before.username).not.toBe(renamed);
    expect((await e2e.sdk(alice.key).getWhoami({})).username).toBe(renamed);
  });

  it('refuses a blank name (400 naming the field) and an unknown user (404), changing nothing', async () => {
    const name = await nameOf(bob.userId);
    const blank = await refusal(e2e.sdk(e2e.rootKey).updateUserName({ userId: bob.userId, userName: '   ' }));
    expect(blank.code).toBe(3);
    expect(blank.message).toContain('userName');
    const unknown = await refusal(e2e.sdk(e2e.rootKey).updateUserName({ userId: '00000000-0000-4000-8000-000000000000', userName: 'nobody' }));
    expect(unknown.code).toBe(5);
    expect(unknown.message).toContain('user not found');
    expect(await nameOf(bob.userId)).toBe(name);
  });

  it('is policy-checked: a user without an allowing policy cannot rename another', async () => {
    const name = await nameOf(bob.userId);
    const r = await refusal(e2e.sdk(alice.key).updateUserName({ userId: bob.userId, userName: 'Mallory' }));
    expect(r.code).toBe(7);
    expect(r.codes).toEqual(['REQUEST_NOT_AUTHORIZED']);
    expect(await nameOf(bob.userId)).toBe(name);
  });
});

/** init_otp at the root organization → the captured code → verify_otp: a verification token for `contact`. */
async function otpToken(otpType: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS', contact: string): Promise<string> {
  const root = e2e.sdk(e2e.rootKey);
  const init = await root.initOtp({ otpType, contact, appName: 'E2E' });
  const message = await latchkey.mail.next();
  expect(message.to).toBe(contact);
  const key = generateP256KeyPair();
  const encryptedOtpBundle = await encryptOtpCodeToBundle(message.code!, init.otpEncryptionTargetBundle, key.publicKey, latchkey.bootstrap.otpVerifierPublicKey);
  return (await root.verifyOtp({ otpId: init.otpId, encryptedOtpBundle })).verificationToken;
}

const userOf = async (userId: string) => (await e2e.sdk(e2e.rootKey).getUser({ userId })).user;
const newEmail = (p: string) => `${uniqueName(p)}@example.com`.toLowerCase();

describe('update_user_email and update_user_phone_number', () => {
  it("a user changing their own e-mail needs a verification token for exactly it; then the contact counts as verified (list_verified_suborgs)", async () => {
    // A sub-organization whose root user holds an API key we have.
    const key = generateP256KeyPair();
    const { subOrganizationId, rootUserIds } = await e2e.sdk(e2e.rootKey).createSubOrganization({
      subOrganizationName: uniqueName('contacts'),
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: 'carol', apiKeys: [{ apiKeyName: 'k', publicKey: key.publicKey, curveType: 'API_KEY_CURVE_P256' }], authenticators: [], oauthProviders: [] }],
    });
    const carolId = rootUserIds![0]!;
    const carol = new Turnkey({ apiBaseUrl: latchkey.baseUrl, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey, defaultOrganizationId: subOrganizationId }).apiClient();
    const email = newEmail('carol');
    const emailOf = async () => (await carol.getUser({ userId: carolId })).user.userEmail;

    const missing = await refusal(carol.updateUserEmail({ userId: carolId, userEmail: email }));
    expect(missing.code).toBe(3);
    expect(missing.message).toContain('verificationToken');
    const otherToken = await otpToken('OTP_TYPE_EMAIL', newEmail('someone-else'));
    const wrong = await refusal(carol.updateUserEmail({ userId: carolId, userEmail: email, verificationToken: otherToken }));
    expect(wrong.message).toContain('verificationToken');
    expect(await emailOf()).toBeFalsy();
    expect((await e2e.sdk(e2e.rootKey).getVerifiedSubOrgIds({ filterType: 'EMAIL', filterValue: email })).organizationIds).toEqual([]);

    const token = await otpToken('OTP_TYPE_EMAIL', email);
    const out = await carol.updateUserEmail({ userId: carolId, userEmail: email, verificationToken: token });
    expect(out.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(out.activity.type).toBe('ACTIVITY_TYPE_UPDATE_USER_EMAIL');
    expect(out.userId).toBe(carolId);
    expect(await emailOf()).toBe(email);
    expect((await e2e.sdk(e2e.rootKey).getVerifiedSubOrgIds({ filterType: 'EMAIL', filterValue: email })).organizationIds).toEqual([subOrganizationId]);
    // A token changes a contact once.
    const reused = await refusal(carol.updateUserEmail({ userId: carolId, userEmail: email, verificationToken: token }));
    expect(reused.message).toContain('already used');
    // Removing one's own e-mail needs no token.
    await carol.updateUserEmail({ userId: carolId, userEmail: '' });
    expect(await emailOf()).toBeFalsy();
  });

  it("the root user may set another user's e-mail without a token (unverified); bad input is a 400 naming the field", async () => {
    const email = newEmail('alice');
    await e2e.sdk(e2e.rootKey).updateUserEmail({ userId: alice.userId, userEmail: email });
    expect((await userOf(alice.userId)).userEmail).toBe(email);
    const bad = await refusal(e2e.sdk(e2e.rootKey).updateUserEmail({ userId: alice.userId, userEmail: 'not-an-address' }));
    expect(bad.code).toBe(3);
    expect(bad.message).toContain('userEmail');
    const unknown = await refusal(e2e.sdk(e2e.rootKey).updateUserEmail({ userId: '00000000-0000-4000-8000-000000000000', userEmail: email }));
    expect(unknown.code).toBe(5);
    // Another member without a policy may not.
    const r = await refusal(e2e.sdk(bob.key).updateUserEmail({ userId: alice.userId, userEmail: newEmail('mallory') }));
    expect(r.code).toBe(7);
    expect((await userOf(alice.userId)).userEmail).toBe(email);
  });

  it('phone numbers: E.164 only; one\'s own needs an SMS verification token for that number', async () => {
    const rootUserId = latchkey.bootstrap.userId;
    const phone = `+1555${String(Date.now()).slice(-7)}`;
    const bad = await refusal(e2e.sdk(e2e.rootKey).updateUserPhoneNumber({ userId: bob.userId, userPhoneNumber: '555-0100' }));
    expect(bad.code).toBe(3);
    expect(bad.message).toContain('userPhoneNumber');
    const own = await refusal(e2e.sdk(e2e.rootKey).updateUserPhoneNumber({ userId: rootUserId, userPhoneNumber: phone }));
    expect(own.message).toContain('verificationToken');
    // An e-mail token does not verify a phone number.
    const emailToken = await otpToken('OTP_TYPE_EMAIL', newEmail('root'));
    expect((await refusal(e2e.sdk(e2e.rootKey).updateUserPhoneNumber({ userId: rootUserId, userPhoneNumber: phone, verificationToken: emailToken }))).message).toContain('verificationToken');
    const token = await otpToken('OTP_TYPE_SMS', phone);
    const out = await e2e.sdk(e2e.rootKey).updateUserPhoneNumber({ userId: rootUserId, userPhoneNumber: phone, verificationToken: token });
    expect(out.activity.type).toBe('ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER');
    expect((await userOf(rootUserId)).userPhoneNumber).toBe(phone);
    // Another user's number, by the root user, unverified.
    await e2e.sdk(e2e.rootKey).updateUserPhoneNumber({ userId: bob.userId, userPhoneNumber: phone });
    expect((await userOf(bob.userId)).userPhoneNumber).toBe(phone);
  });
});
