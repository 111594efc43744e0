/**
 * list_email_events end to end (issue 16 §7), through the unmodified `@turnkey/sdk-server`
 * (`listEmailEvents`). The platform sends through a real SMTP server started here (smtp-server),
 * which accepts every recipient but `bounce-…@` ones, refused with 550: an accepted message is a
 * Send and a Delivery carrying the server's 250 reply; a refused one a Send and a Bounce with the
 * 5xx reply — recorded under the organization whose activity sent it, by recipient, newest first,
 * paged. The refused activity itself fails (503) and leaves nothing else behind.
 */
import { SMTPServer } from 'smtp-server';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from './e2e-helpers.js';
import { policyE2e, refusal } from './policy-e2e-helpers.js';

let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
let smtp: SMTPServer;
let smtpPort: number;
const received: string[] = [];

const newEmail = (p: string) => `${uniqueName(p)}@example.com`.toLowerCase();
const root = () => e2e.sdk(e2e.rootKey);
const eventsOf = async (email: string, extra: { eventType?: string; paginationOptions?: { limit?: string; after?: string } } = {}) => (await root().listEmailEvents({ email, ...extra })).emailEvents;

beforeAll(async () => {
  smtp = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('bounce-')) {
        callback(Object.assign(new Error('5.1.1 <' + address.address + '>: mailbox unavailable'), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        received.push(...session.envelope.rcptTo.map((r) => r.address));
        callback(null, 'queued as E2E');
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  smtpPort = (smtp.server.address() as { port: number }).port;
  latchkey = await startLatchkey({ env: { LATCHKEY_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, LATCHKEY_EMAIL_FROM: 'Latchkey E2E <mailer@latchkey.test>' }, apps: ['public-api'], timeoutMs: 110_000 });
  e2e = policyE2e(latchkey);
}, 130_000);

afterAll(async () => {
  await latchkey?.stop();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

describe('list_email_events', () => {
  it('an accepted message is a Send and a Delivery (the 250 reply), by recipient, newest first', async () => {
    const to = newEmail('otp');
    await root().initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: to, appName: 'E2E' });
    expect(received).toContain(to);
    const events = await eventsOf(to);
    expect(events.map((e) => e.eventType)).toEqual(['Delivery', 'Send']);
    const [delivery, send] = events;
    expect(delivery!.messageId).toBe(send!.messageId);
    expect(delivery).toMatchObject({ organizationId: e2e.orgId, fromAddress: 'mailer@latchkey.test', toAddress: to, timestamp: expect.stringMatching(/^\d{13}$/) });
    expect(delivery!.details.deliverySmtpResponse).toMatch(/^250 /);
    expect(send!.details).toEqual({});
    // Another recipient's events are not this one's.
    expect(await eventsOf(newEmail('nobody'))).toEqual([]);
  });

  it('a refused message (550) is a Send and a Bounce with the reply; the activity fails with 503 and writes nothing else', async () => {
    const to = `bounce-${uniqueName('x')}@example.com`.toLowerCase();
    const r = await refusal(root().createInvitations({ invitations: [{ receiverUserName: 'Bo', receiverUserEmail: to, receiverUserTags: [], accessType: 'ACCESS_TYPE_ALL', senderUserId: latchkey.bootstrap.userId }] }));
    expect(r.code).toBe(14);
    expect(r.message).toContain('550');
    const events = await eventsOf(to);
    expect(events.map((e) => e.eventType)).toEqual(['Bounce', 'Send']);
    expect(events[0]!.details).toMatchObject({ bounceType: 'Permanent', bounceSubType: 'SMTP 550', diagnosticCode: expect.stringContaining('mailbox unavailable') });
    expect(await eventsOf(to, { eventType: 'Bounce' })).toHaveLength(1);
    expect(await eventsOf(to, { eventType: 'Delivery' })).toEqual([]);
    expect(received).not.toContain(to);
  });

  it('pages by event id, filters by type, and refuses a bad address or type with a 400 naming the field', async () => {
    const to = newEmail('paged');
    for (let i = 0; i < 2; i++) await root().initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: to, appName: 'E2E' });
    const all = await eventsOf(to);
    expect(all).toHaveLength(4);
    const first = await eventsOf(to, { paginationOptions: { limit: '3' } });
    const rest = await eventsOf(to, { paginationOptions: { limit: '3', after: first[2]!.id } });
    expect([...first, ...rest].map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect((await eventsOf(to, { eventType: 'Send' })).map((e) => e.eventType)).toEqual(['Send', 'Send']);
    // Case does not matter for the recipient.
    expect(await eventsOf(to.toUpperCase())).toHaveLength(4);
    const bad = await refusal(root().listEmailEvents({ email: 'nope' }));
    expect(bad.code).toBe(3);
    expect(bad.message).toContain('email');
    expect((await refusal(root().listEmailEvents({ email: to, eventType: 'Opened' }))).message).toContain('eventType');
  });
});
