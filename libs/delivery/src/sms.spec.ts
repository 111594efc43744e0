import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryError, readDeliveryConfig, type TDeliveryLogger, type TTwilioConfig } from './config.js';
import { createConsoleSmsProvider, createSmsProvider, createTwilioSmsProvider } from './sms.js';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-auth-token-never-shown';
const FROM = '+15005550006';

interface TSeen {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: URLSearchParams;
}

/** A Twilio-shaped REST server: checks basic auth, answers 201 with a sid, or Twilio's error JSON. */
async function startFakeTwilio(): Promise<{ baseUrl: string; seen: TSeen[]; server: Server }> {
  const seen: TSeen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      seen.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, contentType: req.headers['content-type'], form });
      const expectedAuth = `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
      res.setHeader('content-type', 'application/json');
      if (req.headers.authorization !== expectedAuth) {
        res.writeHead(401).end(JSON.stringify({ code: 20003, message: 'Authenticate', status: 401 }));
      } else if (form.get('To') === '+15005550001') {
        res.writeHead(400).end(JSON.stringify({ code: 21211, message: "The 'To' number +15005550001 is not a valid phone number.", status: 400 }));
      } else {
        res.writeHead(201).end(JSON.stringify({ sid: `SM${seen.length.toString().padStart(32, '0')}`, status: 'queued' }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
let config: TTwilioConfig;
beforeAll(async () => {
  twilio = await startFakeTwilio();
  config = { provider: 'twilio', accountSid: SID, authToken: TOKEN, from: FROM, baseUrl: twilio.baseUrl };
});
afterAll(async () => {
  await new Promise<void>((resolve) => twilio.server.close(() => resolve()));
});

describe('createTwilioSmsProvider', () => {
  it("POSTs To/From/Body form-encoded with basic auth to the account's Messages.json and returns the sid", async () => {
    const sms = createTwilioSmsProvider(config);
    const { id } = await sms.send({ to: '+14155550123', body: 'K7Q2M9XW3 is your Acme code & more' });
    expect(id).toMatch(/^SM\d{32}$/);
    const req = twilio.seen.at(-1)!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(req.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(req.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(req.form)).toEqual({ To: '+14155550123', From: FROM, Body: 'K7Q2M9XW3 is your Acme code & more' });
  });

  it('sends a messaging-service sender as MessagingServiceSid', async () => {
    const mg = `MG${'a'.repeat(32)}`;
    await createTwilioSmsProvider({ ...config, from: mg }).send({ to: '+14155550123', body: 'x' });
    const form = twilio.seen.at(-1)!.form;
    expect(form.get('MessagingServiceSid')).toBe(mg);
    expect(form.has('From')).toBe(false);
  });

  it("reports Twilio's error code and message, never the token", async () => {
    const err = await createTwilioSmsProvider(config).send({ to: '+15005550001', body: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeliveryError);
    expect((err as DeliveryError).reason).toBe('SMS_FAILED');
    expect((err as DeliveryError).message).toBe("the SMS provider refused the message (HTTP 400, Twilio error 21211): The 'To' number +15005550001 is not a valid phone number.");

    const denied = await createTwilioSmsProvider({ ...config, authToken: 'wrong-token-abc' }).send({ to: '+14155550123', body: 'x' }).catch((e: unknown) => e);
    expect((denied as DeliveryError).message).toBe('the SMS provider refused the message (HTTP 401, Twilio error 20003): Authenticate');
    expect((denied as DeliveryError).message).not.toContain('wrong-token-abc');
  });

  it('reports an unreachable provider and refuses numbers that are not E.164', async () => {
    const down = createServer();
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', () => resolve()));
    const baseUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => down.close(() => resolve()));
    const err = await createTwilioSmsProvider({ ...config, baseUrl }).send({ to: '+14155550123', body: 'x' }).catch((e: unknown) => e);
    expect((err as DeliveryError).message).toBe(`could not reach the SMS provider at ${baseUrl}: the connection failed`);

    const bad = await createTwilioSmsProvider(config).send({ to: '4155550123', body: 'x' }).catch((e: unknown) => e);
    expect((bad as DeliveryError).reason).toBe('MESSAGE_INVALID');
  });
});

describe('createConsoleSmsProvider and createSmsProvider', () => {
  it('writes the SMS to the developer outbox (0600) and logs where, not the body', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'latchkey-sms-'));
    try {
      const logged: Array<{ obj: object; msg: string }> = [];
      const logger: TDeliveryLogger = { info: (obj, msg) => logged.push({ obj, msg }), warn: (obj, msg) => logged.push({ obj, msg }) };
      const sms = createSmsProvider(readDeliveryConfig({}, dir), logger);
      expect(sms.name).toBe('console');
      const { id } = await sms.send({ to: '+14155550123', body: 'K7Q2M9XW3 is your code' });
      const [name] = await readdir(join(dir, 'outbox'));
      expect(name).toMatch(/\.sms\.txt$/);
      const file = join(dir, 'outbox', name!);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const text = await readFile(file, 'utf8');
      expect(text).toContain('To: +14155550123');
      expect(text).toContain(`Id: ${id}`);
      expect(text).toContain('K7Q2M9XW3 is your code');
      expect(logged).toEqual([{ obj: { outboxFile: file, to: '+14155550123' }, msg: expect.stringContaining('developer outbox') }]);
      expect(JSON.stringify(logged)).not.toContain('K7Q2M9XW3');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('picks Twilio when configured', () => {
    const c = readDeliveryConfig({ LATCHKEY_SMS_PROVIDER: 'twilio', LATCHKEY_TWILIO_ACCOUNT_SID: SID, LATCHKEY_TWILIO_AUTH_TOKEN: TOKEN, LATCHKEY_TWILIO_FROM: FROM }, '/d');
    const logger: TDeliveryLogger = { info: () => undefined, warn: () => undefined };
    expect(createSmsProvider(c, logger).name).toBe('twilio');
    expect(createConsoleSmsProvider(logger, '/d').name).toBe('console');
  });
});
