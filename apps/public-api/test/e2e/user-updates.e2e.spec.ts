/**
 * update_user_name (issue 16 §7) through the unmodified `@turnkey/sdk-server`: a rename shows in
 * get_user and at once in the renamed user's whoami (its cached row dropped); a blank name, an
 * unknown user and a caller without a policy are refused, and nothing changes.
 */
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from './e2e-helpers.js';
import { policyE2e, refusal, type TMember } from './policy-e2e-helpers.js';

let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
let alice: TMember;
let bob: TMember;

beforeAll(async () => {
  latchkey = await startLatchkey({ apps: ['public-api'] });
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
