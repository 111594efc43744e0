import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryError, readDeliveryConfig } from './config.js';
import { createMailer, type TMailer } from './mailer.js';
import { renderOtpEmail } from './templates.js';

const CODE = 'K7Q2M9XW3';

/** A pino logger writing its JSON lines into an array. */
function captureLogger(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString('utf8'));
      cb();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

interface TReceived {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server (the smtp-server package) on loopback, plain text, recording the raw
 * messages. (The richer capture server with MIME decoding is @latchkey/testkit's
 * startSmtpCapture, which a library may not import.)
 */
async function startSmtp(password?: string): Promise<{ url: (pass: string) => string; received: TReceived[]; stop(): Promise<void> }> {
  const received: TReceived[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 200,
    onAuth(auth, _s, cb) {
      if (password !== undefined && auth.password !== password) cb(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
      else cb(null, { user: auth.username ?? '' });
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: (pass) => `smtp://mailer:${encodeURIComponent(pass)}@127.0.0.1:${port}`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Undoes quoted-printable (soft breaks and =XX) — enough to read nodemailer's text part. */
function unQp(s: string): string {
  return Buffer.from(s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
}

let dataDir: string;
const mailers: TMailer[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'latchkey-mailer-'));
});
afterEach(async () => {
  for (const m of mailers.splice(0)) await m.close();
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('createMailer — developer outbox (no LATCHKEY_SMTP_URL)', () => {
  it('writes a complete .eml (0600, folder 0700) and logs where, without the code', async () => {
    const { logger, lines } = captureLogger();
    const mailer = createMailer(readDeliveryConfig({}, dataDir), logger);
    mailers.push(mailer);
    expect(mailer.mode).toBe('outbox');
    const rendered = renderOtpEmail({ appName: 'Acme Wallet', code: CODE, expiresInSeconds: 300 });
    const { messageId } = await mailer.send({ to: 'alice@example.com', ...rendered });
    expect(messageId).toMatch(/^<.+@.+>$/);

    const outbox = join(dataDir, 'outbox');
    expect((await stat(outbox)).mode & 0o777).toBe(0o700);
    const files = (await readdir(outbox)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[0-9a-f]{12}\.eml$/);
    const file = join(outbox, files[0]!);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const eml = await readFile(file, 'utf8');
    expect(eml).toContain('To: alice@example.com');
    expect(eml).toContain('From: Latchkey <no-reply@localhost>');
    expect(eml).toContain('Subject: Your Acme Wallet verification code');
    expect(eml).toContain(CODE);
    expect(eml).toContain(`Message-ID: ${messageId}`);

    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, outboxFile: file, to: 'alice@example.com', subject: 'Your Acme Wallet verification code' });
    expect(lines[0]).not.toContain(CODE);
  });

  it('applies the sender overrides over LATCHKEY_EMAIL_FROM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'latchkey-mailer-from-'));
    try {
      const mailer = createMailer(readDeliveryConfig({ LATCHKEY_EMAIL_FROM: 'Acme <no-reply@acme.test>' }, dir), captureLogger().logger);
      mailers.push(mailer);
      await mailer.send({ to: 'bob@example.com', subject: 's', text: 't', from: { name: 'Acme Login' }, replyTo: 'help@acme.test' });
      const [name] = await readdir(join(dir, 'outbox'));
      const eml = await readFile(join(dir, 'outbox', name!), 'utf8');
      expect(eml).toContain('From: Acme Login <no-reply@acme.test>');
      expect(eml).toContain('Reply-To: help@acme.test');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a recipient that is not a plain address', async () => {
    const mailer = createMailer(readDeliveryConfig({}, dataDir), captureLogger().logger);
    mailers.push(mailer);
    const err = await mailer.send({ to: 'a@b.test\r\nBcc: c@d.test', subject: 's', text: 't' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeliveryError);
    expect((err as DeliveryError).reason).toBe('MESSAGE_INVALID');
  });
});

describe('createMailer — SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp('right-password');
  });
  afterAll(async () => {
    await smtp.stop();
  });

  it('delivers the rendered e-mail over SMTP with the URL credentials', async () => {
    const { logger, lines } = captureLogger();
    const mailer = createMailer(readDeliveryConfig({ LATCHKEY_SMTP_URL: smtp.url('right-password'), LATCHKEY_EMAIL_FROM: 'Acme <no-reply@acme.test>' }, dataDir), logger);
    mailers.push(mailer);
    expect(mailer.mode).toBe('smtp');
    const rendered = renderOtpEmail({ appName: 'Acme Wallet', code: CODE, expiresInSeconds: 300, emailCustomization: { magicLinkTemplate: 'https://acme.test/login?otp=%s' } });
    const before = smtp.received.length;
    const { messageId } = await mailer.send({ to: 'alice@example.com', ...rendered });
    expect(smtp.received).toHaveLength(before + 1);
    const got = smtp.received[before]!;
    expect(got.from).toBe('no-reply@acme.test');
    expect(got.to).toEqual(['alice@example.com']);
    expect(got.raw).toContain('Subject: Your Acme Wallet verification code');
    expect(got.raw).toContain(`Message-ID: ${messageId}`);
    expect(got.raw).toMatch(/Content-Type: multipart\/alternative/);
    const body = unQp(got.raw);
    expect(body).toContain(`    ${CODE}`);
    expect(body).toContain(`https://acme.test/login?otp=${CODE}`);
    expect(lines.join('')).not.toContain(CODE);
  });

  it('turns refused credentials into a DeliveryError that names the server but not the password', async () => {
    const mailer = createMailer(readDeliveryConfig({ LATCHKEY_SMTP_URL: smtp.url('wrong-password-xyz') }, dataDir), captureLogger().logger);
    mailers.push(mailer);
    const err = await mailer.send({ to: 'alice@example.com', subject: 's', text: CODE }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeliveryError);
    const e = err as DeliveryError;
    expect(e.reason).toBe('SMTP_FAILED');
    expect(e.message).toMatch(/^could not send mail through smtp:\/\/mailer:\*\*\*@127\.0\.0\.1:\d+: the server refused the credentials reply 535/);
    expect(e.message).not.toContain('wrong-password-xyz');
    expect(e.message).not.toContain(CODE);
  });

  it('turns an unreachable server into a DeliveryError', async () => {
    // A port that was just free: nothing listens there.
    const probe = await startSmtp();
    const url = probe.url('pw-unreachable');
    await probe.stop();
    const mailer = createMailer(readDeliveryConfig({ LATCHKEY_SMTP_URL: url }, dataDir), captureLogger().logger);
    mailers.push(mailer);
    const err = await mailer.send({ to: 'alice@example.com', subject: 's', text: 't' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeliveryError);
    expect((err as DeliveryError).message).toMatch(/could not connect|connection failed/);
    expect((err as DeliveryError).message).not.toContain('pw-unreachable');
  });
});
