/**
 * A Twilio-compatible Messages endpoint on 127.0.0.1 that keeps every SMS it is sent, so a test
 * instance's SMS (LATCHKEY_SMS_PROVIDER=twilio, LATCHKEY_TWILIO_BASE_URL at this server) are read in
 * memory instead of going to a carrier or a file. It speaks the one call Latchkey's Twilio provider
 * makes (a form-encoded POST to /2010-04-01/Accounts/{sid}/Messages.json with HTTP basic auth) and
 * answers like Twilio: 201 with a message sid, or 401 / 404 with Twilio's error shape.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TCapturedSms {
  to: string;
  /** `From`, or `MessagingServiceSid` when the sender is a messaging service. */
  from: string;
  body: string;
  /** The sid this server answered with (SM + 32 hex digits). */
  sid: string;
}

export interface TSmsCapture {
  /** e.g. http://127.0.0.1:41234 — ready for LATCHKEY_TWILIO_BASE_URL. */
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** The environment that points a Latchkey at this server. */
  env: Record<string, string>;
  messages: TCapturedSms[];
  /** Called with every message as it arrives. */
  onMessage(listener: (m: TCapturedSms) => void): void;
  stop(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

/** Starts the capture server on a free port, with a random account sid and token. */
export async function startSmsCapture(): Promise<TSmsCapture> {
  const accountSid = `AC${randomBytes(16).toString('hex')}`;
  const authToken = randomBytes(16).toString('hex');
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  const path = `/2010-04-01/Accounts/${accountSid}/Messages.json`;
  const messages: TCapturedSms[] = [];
  const listeners: ((m: TCapturedSms) => void)[] = [];

  const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    if (req.method !== 'POST' || req.url !== path) return json(res, 404, { code: 20404, message: `The requested resource ${req.url ?? ''} was not found`, status: 404 });
    if (req.headers.authorization !== expectedAuth) return json(res, 401, { code: 20003, message: 'Authenticate', status: 401 });
    const form = new URLSearchParams(body);
    const to = form.get('To');
    const text = form.get('Body');
    const from = form.get('From') ?? form.get('MessagingServiceSid');
    if (!to || !text || !from) return json(res, 400, { code: 21604, message: "A 'To', 'Body' and 'From' (or 'MessagingServiceSid') are required", status: 400 });
    const message: TCapturedSms = { to, from, body: text, sid: `SM${randomBytes(16).toString('hex')}` };
    messages.push(message);
    for (const l of listeners) l(message);
    json(res, 201, { sid: message.sid, to, from, body: text, status: 'queued', account_sid: accountSid });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    accountSid,
    authToken,
    env: {
      LATCHKEY_SMS_PROVIDER: 'twilio',
      LATCHKEY_TWILIO_BASE_URL: baseUrl,
      LATCHKEY_TWILIO_ACCOUNT_SID: accountSid,
      LATCHKEY_TWILIO_AUTH_TOKEN: authToken,
      LATCHKEY_TWILIO_FROM: '+15005550006',
    },
    messages,
    onMessage: (l) => void listeners.push(l),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
