import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DeliveryError, describeDeliveryConfig, parseMailbox, readDeliveryConfig } from './config.js';

function reasonOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof DeliveryError) return `${e.reason}: ${e.message}`;
    throw e;
  }
  throw new Error('expected a DeliveryError');
}

describe('readDeliveryConfig', () => {
  it('defaults to the developer outbox, the console SMS provider and Latchkey <no-reply@localhost>', () => {
    const c = readDeliveryConfig({}, 'data');
    expect(c.smtp).toBeUndefined();
    expect(c.sms).toEqual({ provider: 'console' });
    expect(c.emailFrom).toEqual({ name: 'Latchkey', address: 'no-reply@localhost' });
    expect(c.dataDir).toBe(resolve('data'));
    expect(c.outboxDir).toBe(join(resolve('data'), 'outbox'));
    expect(describeDeliveryConfig(c)).toContain('outbox');
  });

  it('treats empty strings as unset', () => {
    const c = readDeliveryConfig({ LATCHKEY_SMTP_URL: '', LATCHKEY_EMAIL_FROM: ' ', LATCHKEY_SMS_PROVIDER: '' }, '/d');
    expect(c.smtp).toBeUndefined();
    expect(c.emailFrom.address).toBe('no-reply@localhost');
    expect(c.sms.provider).toBe('console');
  });

  it('parses smtp:// and smtps:// URLs with URL-encoded credentials and default ports', () => {
    const plain = readDeliveryConfig({ LATCHKEY_SMTP_URL: 'smtp://us%40er:p%40ss%3Aw@mail.example.com' }, '/d').smtp;
    expect(plain).toMatchObject({ host: 'mail.example.com', port: 587, secure: false, user: 'us@er', password: 'p@ss:w' });
    expect(plain?.redactedUrl).toBe('smtp://us%40er:***@mail.example.com:587');
    const tls = readDeliveryConfig({ LATCHKEY_SMTP_URL: 'smtps://mail.example.com' }, '/d').smtp;
    expect(tls).toMatchObject({ port: 465, secure: true, user: undefined, password: undefined });
    expect(readDeliveryConfig({ LATCHKEY_SMTP_URL: 'smtp://[::1]:2525' }, '/d').smtp).toMatchObject({ host: '::1', port: 2525 });
  });

  it('refuses other schemes, hostless URLs and paths — without echoing the password', () => {
    const secret = 'hunter2-secret';
    const cases = [`http://u:${secret}@mail.example.com`, `smtp:u:${secret}@host`, `smtp://u:${secret}@host:25/path`, `smtp://u:${secret}@host:25?x=1`, `not a url ${secret}`];
    for (const url of cases) {
      const msg = reasonOf(() => readDeliveryConfig({ LATCHKEY_SMTP_URL: url }, '/d'));
      expect(msg).toMatch(/^CONFIG_INVALID: LATCHKEY_SMTP_URL/);
      expect(msg).not.toContain(secret);
    }
    expect(reasonOf(() => readDeliveryConfig({ LATCHKEY_SMTP_URL: 'http://mail.example.com' }, '/d'))).toContain('smtp:// or smtps://');
  });

  it('describes the SMTP target with the password hidden', () => {
    const c = readDeliveryConfig({ LATCHKEY_SMTP_URL: 'smtps://me:topsecret@mail.example.com:2465' }, '/d');
    const line = describeDeliveryConfig(c);
    expect(line).toContain('smtps://me:***@mail.example.com:2465');
    expect(line).not.toContain('topsecret');
  });

  it('reads LATCHKEY_EMAIL_FROM as "Name <address>" or a bare address', () => {
    expect(readDeliveryConfig({ LATCHKEY_EMAIL_FROM: 'Acme Wallet <login@acme.test>' }, '/d').emailFrom).toEqual({ name: 'Acme Wallet', address: 'login@acme.test' });
    expect(readDeliveryConfig({ LATCHKEY_EMAIL_FROM: '"Acme, Inc" <login@acme.test>' }, '/d').emailFrom).toEqual({ name: 'Acme, Inc', address: 'login@acme.test' });
    expect(readDeliveryConfig({ LATCHKEY_EMAIL_FROM: 'login@acme.test' }, '/d').emailFrom).toEqual({ address: 'login@acme.test' });
    expect(reasonOf(() => readDeliveryConfig({ LATCHKEY_EMAIL_FROM: 'not-an-address' }, '/d'))).toMatch(/^CONFIG_INVALID: LATCHKEY_EMAIL_FROM/);
    expect(reasonOf(() => parseMailbox('a@b.test\r\nBcc: x@y.test', 'X'))).toMatch(/^CONFIG_INVALID: X/);
  });

  it('configures Twilio, with its base URL overridable and all three credentials required', () => {
    const env = { LATCHKEY_SMS_PROVIDER: 'twilio', LATCHKEY_TWILIO_ACCOUNT_SID: 'AC123', LATCHKEY_TWILIO_AUTH_TOKEN: 'tok', LATCHKEY_TWILIO_FROM: '+15005550006' };
    expect(readDeliveryConfig(env, '/d').sms).toEqual({ provider: 'twilio', accountSid: 'AC123', authToken: 'tok', from: '+15005550006', baseUrl: 'https://api.twilio.com' });
    expect(readDeliveryConfig({ ...env, LATCHKEY_TWILIO_BASE_URL: 'http://127.0.0.1:4010/' }, '/d').sms).toMatchObject({ baseUrl: 'http://127.0.0.1:4010' });
    for (const missing of ['LATCHKEY_TWILIO_ACCOUNT_SID', 'LATCHKEY_TWILIO_AUTH_TOKEN', 'LATCHKEY_TWILIO_FROM'] as const) {
      expect(reasonOf(() => readDeliveryConfig({ ...env, [missing]: undefined }, '/d'))).toBe(`CONFIG_INVALID: ${missing} is required when LATCHKEY_SMS_PROVIDER=twilio`);
    }
    expect(reasonOf(() => readDeliveryConfig({ ...env, LATCHKEY_TWILIO_BASE_URL: 'ftp://x' }, '/d'))).toMatch(/LATCHKEY_TWILIO_BASE_URL must be an http\(s\) URL/);
    expect(reasonOf(() => readDeliveryConfig({ ...env, LATCHKEY_SMS_PROVIDER: 'carrier-pigeon' }, '/d'))).toMatch(/LATCHKEY_SMS_PROVIDER must be console or twilio/);
  });
});
