/**
 * Invitations end to end (issue 16 §7): create_invitations and delete_invitation through the
 * unmodified `@turnkey/sdk-server`, each invitation mailed through the platform's mail sender (the
 * test kit's SMTP capture), and accepting one (ACTIVITY_TYPE_ACCEPT_INVITATION_V2, stamped with
 * `@turnkey/api-key-stamper`: no Turnkey client has a route for it) registering the receiver's
 * passkey (the test kit's software authenticator) as a new user with the invited name, e-mail and
 * tags — a user whose passkey then stamps requests. Refusals are 4xx naming the field, send no
 * mail and write nothing.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { TurnkeyClient } from '@turnkey/http';
import { createSoftwareAuthenticator, startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorResponse, rawRequest, uniqueName, type TRawResponse } from './e2e-helpers.js';
import { policyE2e, refusal, type TKeyPair } from './policy-e2e-helpers.js';

let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
let rootUserId: string;
let rootUserName: string;
let tagId: string;

const root = () => e2e.sdk(e2e.rootKey);
const newEmail = (p: string) => `${uniqueName(p)}@example.com`.toLowerCase();
const invite = (receiverUserEmail: string, extra: Partial<{ receiverUserName: string; receiverUserTags: string[]; senderUserId: string }> = {}) => ({
  receiverUserName: extra.receiverUserName ?? 'Dana Invitee',
  receiverUserEmail,
  receiverUserTags: extra.receiverUserTags ?? [tagId],
  accessType: 'ACCESS_TYPE_ALL' as const,
  senderUserId: extra.senderUserId ?? rootUserId,
});

/** A stamped accept_invitation (ACCEPT_INVITATION_V2) by `key`. */
async function accept(key: TKeyPair, parameters: object): Promise<TRawResponse> {
  const body = JSON.stringify({ type: 'ACTIVITY_TYPE_ACCEPT_INVITATION_V2', timestampMs: String(Date.now()), organizationId: e2e.orgId, parameters });
  const { stampHeaderName, stampHeaderValue } = await new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }).stamp(body);
  return rawRequest(`${latchkey.baseUrl}/public/v1/submit/accept_invitation`, { body, headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue } });
}

beforeAll(async () => {
  // A slow start is not a failure here (the machine's cores are shared): wait up to 110 s.
  latchkey = await startLatchkey({ apps: ['public-api'], timeoutMs: 110_000 });
  e2e = policyE2e(latchkey);
  const me = await root().getWhoami({});
  [rootUserId, rootUserName] = [me.userId, me.username];
  tagId = (await root().createUserTag({ userTagName: uniqueName('invited'), userIds: [] })).userTagId;
}, 120_000);

afterAll(async () => {
  await latchkey?.stop();
});

describe('create, mail, accept, delete', () => {
  it('mails each receiver; accepting registers the passkey as a new user with the invited name, e-mail and tags', async () => {
    const [dana, erin] = [newEmail('dana'), newEmail('erin')];
    const created = await root().createInvitations({ invitations: [invite(dana), invite(erin, { receiverUserName: 'Erin', receiverUserTags: [] })] });
    expect(created.activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(created.activity.type).toBe('ACTIVITY_TYPE_CREATE_INVITATIONS');
    const [danaInvitation, erinInvitation] = created.invitationIds;
    const mails = [await latchkey.mail.next(), await latchkey.mail.next()];
    const danaMail = mails.find((m) => m.to === dana)!;
    expect(mails.map((m) => m.to).sort()).toEqual([dana, erin].sort());
    expect(danaMail.subject).toContain('You are invited to');
    expect(danaMail.text).toContain(danaInvitation);
    expect(danaMail.text).toContain(`Hello Dana Invitee, ${rootUserName} invited you`);

    const passkey = createSoftwareAuthenticator({ rpId: 'localhost', origin: 'http://localhost:3000' });
    const res = await accept(e2e.rootKey, { invitationId: danaInvitation, userId: rootUserId, authenticator: passkey.authenticatorParams('Dana laptop') });
    expect(res.status, res.text).toBe(200);
    const activity = (res.json as { activity: { status: string; type: string; result: { acceptInvitationResult: { invitationId: string; userId: string } } } }).activity;
    expect(activity).toMatchObject({ status: 'ACTIVITY_STATUS_COMPLETED', type: 'ACTIVITY_TYPE_ACCEPT_INVITATION_V2' });
    const { userId } = activity.result.acceptInvitationResult;
    expect(activity.result.acceptInvitationResult.invitationId).toBe(danaInvitation);
    const { user } = await root().getUser({ userId });
    expect(user).toMatchObject({ userName: 'Dana Invitee', userEmail: dana });
    expect(user.userTags).toEqual([tagId]);
    expect(user.authenticators.map((a) => a.credentialId)).toEqual([passkey.credentialId]);
    // The new user's passkey stamps requests.
    const asDana = new TurnkeyClient({ baseUrl: latchkey.baseUrl }, passkey.stamper);
    expect(await asDana.getWhoami({ organizationId: e2e.orgId })).toMatchObject({ userId, username: 'Dana Invitee' });

    // Accepted once: again, or deleting it, is a 400 naming the invitation.
    const again = await accept(e2e.rootKey, { invitationId: danaInvitation, userId: rootUserId, authenticator: createSoftwareAuthenticator({ rpId: 'localhost', origin: 'http://localhost:3000' }).authenticatorParams('again') });
    expect(expectErrorResponse(again, 400, 3, 'REQUEST_INVALID').message).toContain('already accepted');
    expect((await refusal(root().deleteInvitation({ invitationId: danaInvitation! }))).message).toContain('already accepted');

    // Erin's is deleted: it can no longer be accepted.
    const deleted = await root().deleteInvitation({ invitationId: erinInvitation! });
    expect(deleted.invitationId).toBe(erinInvitation);
    expect(deleted.activity.type).toBe('ACTIVITY_TYPE_DELETE_INVITATION');
    const late = await accept(e2e.rootKey, { invitationId: erinInvitation, userId: rootUserId, authenticator: createSoftwareAuthenticator({ rpId: 'localhost', origin: 'http://localhost:3000' }).authenticatorParams('late') });
    expect(expectErrorResponse(late, 400, 3, 'REQUEST_INVALID').message).toContain('invitationId');
    expect((await root().getUsers({})).users.map((u) => u.userEmail)).not.toContain(erin);
  });
});

describe('refusals', () => {
  it('bad invitations are a 4xx naming the field; no mail is sent and nothing is written', async () => {
    const unknownSender = await refusal(root().createInvitations({ invitations: [invite(newEmail('x'), { senderUserId: '00000000-0000-4000-8000-000000000000' })] }));
    expect(unknownSender.code).toBe(5);
    expect(unknownSender.message).toContain('invitations.0.senderUserId');
    const unknownTag = await refusal(root().createInvitations({ invitations: [invite(newEmail('y')), invite(newEmail('z'), { receiverUserTags: ['00000000-0000-4000-8000-00000000beef'] })] }));
    expect(unknownTag.code).toBe(5);
    expect(unknownTag.message).toContain('invitations.1.receiverUserTags');
    const badEmail = await refusal(root().createInvitations({ invitations: [invite('not-an-address')] }));
    expect(badEmail.code).toBe(3);
    expect(badEmail.message).toContain('receiverUserEmail');
    const badAccess = await refusal(root().createInvitations({ invitations: [{ ...invite(newEmail('w')), accessType: 'ACCESS_TYPE_SOMETIMES' as 'ACCESS_TYPE_ALL' }] }));
    expect(badAccess.message).toContain('accessType');
    // None of them sent anything: the next mail is the next good invitation's.
    const good = newEmail('good');
    await root().createInvitations({ invitations: [invite(good)] });
    expect((await latchkey.mail.next()).to).toBe(good);
    expect((await refusal(root().deleteInvitation({ invitationId: '00000000-0000-4000-8000-000000000000' }))).code).toBe(5);
  });

  it('an acceptance with a bad passkey attestation, or naming another user, is a 400 and leaves the invitation open', async () => {
    const email = newEmail('frank');
    const { invitationIds } = await root().createInvitations({ invitations: [invite(email, { receiverUserName: 'Frank' })] });
    await latchkey.mail.next();
    const passkey = createSoftwareAuthenticator({ rpId: 'localhost', origin: 'http://localhost:3000' });
    const params = passkey.authenticatorParams('Frank phone');
    const forged = await accept(e2e.rootKey, { invitationId: invitationIds[0], userId: rootUserId, authenticator: { ...params, challenge: 'Zm9yZ2Vk' } });
    expect(expectErrorResponse(forged, 400, 3, 'REQUEST_INVALID').message).toMatch(/authenticator|attestation|challenge/);
    const other = await accept(e2e.rootKey, { invitationId: invitationIds[0], userId: '00000000-0000-4000-8000-000000000000', authenticator: params });
    expect(expectErrorResponse(other, 400, 3, 'REQUEST_INVALID').message).toContain('userId');
    expect((await root().getUsers({})).users.map((u) => u.userEmail)).not.toContain(email);
    const ok = await accept(e2e.rootKey, { invitationId: invitationIds[0], userId: rootUserId, authenticator: params });
    expect(ok.status, ok.text).toBe(200);
  });

  it('is policy-checked: a member without an allowing policy can neither invite nor accept', async () => {
    const member = await e2e.member('no-invites');
    const r = await refusal(e2e.sdk(member.key).createInvitations({ invitations: [invite(newEmail('m'), { senderUserId: member.userId, receiverUserTags: [] })] }));
    expect(r.code).toBe(7);
    expect(r.codes).toEqual(['REQUEST_NOT_AUTHORIZED']);
    const { invitationIds } = await root().createInvitations({ invitations: [invite(newEmail('n'))] });
    await latchkey.mail.next();
    const passkey = createSoftwareAuthenticator({ rpId: 'localhost', origin: 'http://localhost:3000' });
    const denied = await accept(member.key, { invitationId: invitationIds[0], userId: member.userId, authenticator: passkey.authenticatorParams('x') });
    expectErrorResponse(denied, 403, 7, 'REQUEST_NOT_AUTHORIZED');
  });
});
