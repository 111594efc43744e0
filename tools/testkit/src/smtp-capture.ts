/**
 * A real SMTP server on 127.0.0.1 that keeps every message it receives, for tests that send mail
 * (OTP, recovery, e-mail auth) through Latchkey's own SMTP client instead of a mock. Plain SMTP
 * without TLS (STARTTLS is not offered) unless `tls` is given, then implicit TLS (smtps://); any
 * credentials accepted unless a password is set.
 *
 * `mailparser` does not install on this machine, so the MIME decoding is done here, enough for
 * what nodemailer produces: unfolded headers, RFC 2047 encoded words, nested multiparts, and the
 * quoted-printable and base64 transfer encodings in the part's charset.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface TCapturedMail {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO). */
  to: string[];
  /** Decoded Subject header. */
  subject: string;
  /** The first text/plain part, decoded, with \n line ends ('' when there is none). */
  text: string;
  /** The first text/html part, decoded. */
  html?: string;
  /** Top-level headers, names in lower case, values unfolded and decoded (last occurrence wins). */
  headers: Record<string, string>;
  /** The user name the client authenticated with, if it did. */
  authUser?: string;
  /** The message as received (CRLF line ends, dot-stuffing removed). */
  raw: string;
}

export interface TSmtpCaptureOptions {
  /** When set, AUTH succeeds only with this password (any user name); otherwise any credentials work. */
  password?: string;
  /** Credentials put in `url`. Default user / pass. */
  user?: string;
  /** PEM key and certificate: the server speaks implicit TLS and `url` is smtps://. */
  tls?: { key: string; cert: string };
  /** Called with every message as it arrives. */
  onMessage?: (m: TCapturedMail) => void;
}

export interface TSmtpCapture {
  /** e.g. smtp://user:pass@127.0.0.1:41234 (smtps:// with `tls`) — ready for LATCHKEY_SMTP_URL. */
  url: string;
  host: string;
  port: number;
  /** Every message received so far, oldest first. */
  messages: TCapturedMail[];
  /** Resolves with the first message (already received or still to come) that matches. */
  waitForMessage(predicate?: (m: TCapturedMail) => boolean, timeoutMs?: number): Promise<TCapturedMail>;
  stop(): Promise<void>;
}

/** Starts the capture server on a free port. */
export async function startSmtpCapture(opts: TSmtpCaptureOptions = {}): Promise<TSmtpCapture> {
  const messages: TCapturedMail[] = [];
  const waiters = new Set<(m: TCapturedMail) => void>();
  const server = new SMTPServer({
    ...(opts.tls ? { secure: true, key: opts.tls.key, cert: opts.tls.cert } : { secure: false }),
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 500,
    size: 10 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      if (opts.password !== undefined && auth.password !== opts.password) {
        const err = Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 });
        callback(err);
        return;
      }
      callback(null, { user: auth.username ?? '' });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', (e) => callback(e));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('latin1');
        const mail = parseMail(raw);
        const captured: TCapturedMail = {
          ...mail,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.from(raw, 'latin1').toString('utf8'),
        };
        const user = (session as { user?: unknown }).user;
        if (typeof user === 'string') captured.authUser = user;
        messages.push(captured);
        opts.onMessage?.(captured);
        for (const w of [...waiters]) w(captured);
        callback(null, 'captured');
      });
    },
  });
  server.on('error', () => {
    // A client that hangs up mid-dialogue is not the test's failure; the assertions will tell.
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  const user = encodeURIComponent(opts.user ?? 'user');
  const pass = encodeURIComponent(opts.password ?? 'pass');

  return {
    url: `${opts.tls ? 'smtps' : 'smtp'}://${user}:${pass}@127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    messages,
    waitForMessage(predicate = () => true, timeoutMs = 10_000) {
      const already = messages.find(predicate);
      if (already) return Promise.resolve(already);
      return new Promise<TCapturedMail>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(onMessage);
          reject(new Error(`no matching mail within ${timeoutMs} ms (${messages.length} received: ${messages.map((m) => JSON.stringify(m.subject)).join(', ') || 'none'})`));
        }, timeoutMs);
        const onMessage = (m: TCapturedMail): void => {
          if (!predicate(m)) return;
          clearTimeout(timer);
          waiters.delete(onMessage);
          resolve(m);
        };
        waiters.add(onMessage);
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---------------------------------------------------------------------------------------------
// MIME decoding (RFC 2045–2047), enough for nodemailer's output.

interface TPart {
  headers: Record<string, string>;
  body: string; // latin1: one char per byte
}

function decodeBytes(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset.toLowerCase() || 'utf-8').decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

/** Quoted-printable to bytes (`_` is a space only in encoded words: `q` = true). */
function qpToBytes(s: string, q = false): Buffer {
  const text = (q ? s.replace(/_/g, ' ') : s).replace(/=\r?\n/g, '');
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const hex = text.slice(i + 1, i + 3);
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else {
      out.push(text.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(out);
}

/** RFC 2047: `=?charset?B|Q?text?=` words, whitespace between adjacent words dropped. */
export function decodeEncodedWords(value: string): string {
  const word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  const joined = value.replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?[^?]+\?[BbQq]\?[^?]*\?=)/g, '$1');
  // Decode runs of words of one charset together: a multi-byte character may straddle two words.
  return joined.replace(/(?:=\?([^?]+)\?([BbQq])\?([^?]*)\?=)+/g, (run) => {
    const parts: Buffer[] = [];
    let charset = 'utf-8';
    for (const m of run.matchAll(word)) {
      charset = m[1]!.replace(/\*.*$/, ''); // RFC 2231 language suffix
      parts.push(m[2]!.toUpperCase() === 'B' ? Buffer.from(m[3]!, 'base64') : qpToBytes(m[3]!, true));
    }
    return decodeBytes(Buffer.concat(parts), charset);
  });
}

function splitHeaders(raw: string): TPart {
  const m = /\r?\n\r?\n/.exec(raw);
  const head = m ? raw.slice(0, m.index) : raw;
  const body = m ? raw.slice(m.index + m[0].length) : '';
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body };
}

/** `type/subtype; a=b; c="d"` → the type (lower case) and its parameters. */
function parseContentType(value: string | undefined): { type: string; params: Record<string, string> } {
  const [first, ...rest] = (value ?? 'text/plain').split(';');
  const params: Record<string, string> = {};
  for (const p of rest) {
    const i = p.indexOf('=');
    if (i < 0) continue;
    params[p.slice(0, i).trim().toLowerCase()] = p.slice(i + 1).trim().replace(/^"(.*)"$/, '$1');
  }
  return { type: (first ?? 'text/plain').trim().toLowerCase(), params };
}

function decodeBody(part: TPart, charset: string): string {
  const cte = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  let bytes: Buffer;
  if (cte === 'base64') bytes = Buffer.from(part.body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  else if (cte === 'quoted-printable') bytes = qpToBytes(part.body);
  else bytes = Buffer.from(part.body, 'latin1');
  return decodeBytes(bytes, charset).replace(/\r\n/g, '\n');
}

function walk(part: TPart, found: { text?: string; html?: string }): void {
  const ct = parseContentType(part.headers['content-type']);
  if (ct.type.startsWith('multipart/')) {
    const boundary = ct.params['boundary'];
    if (!boundary) return;
    const delimiter = `--${boundary}`;
    const sections = part.body.split(new RegExp(`(?:^|\\r?\\n)${delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    // sections[0] is the preamble; a section starting with "--" is the closing delimiter's epilogue.
    for (const section of sections.slice(1)) {
      if (section.startsWith('--')) break;
      walk(splitHeaders(section.replace(/^[ \t]*\r?\n/, '')), found);
    }
    return;
  }
  const disposition = (part.headers['content-disposition'] ?? '').toLowerCase();
  if (disposition.startsWith('attachment')) return;
  const charset = ct.params['charset'] ?? 'utf-8';
  if (ct.type === 'text/plain' && found.text === undefined) found.text = decodeBody(part, charset);
  else if (ct.type === 'text/html' && found.html === undefined) found.html = decodeBody(part, charset);
}

/** Decodes a raw RFC 5322 message (headers, subject, first text and html parts). */
export function parseMail(raw: string): Pick<TCapturedMail, 'subject' | 'text' | 'html' | 'headers'> {
  const top = splitHeaders(raw);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(top.headers)) {
    // Header bytes are UTF-8 when a client sends 8-bit headers (SMTPUTF8); decode, then unwrap words.
    headers[k] = decodeEncodedWords(Buffer.from(v, 'latin1').toString('utf8'));
  }
  const found: { text?: string; html?: string } = {};
  walk(top, found);
  const out: Pick<TCapturedMail, 'subject' | 'text' | 'html' | 'headers'> = { subject: headers['subject'] ?? '', text: found.text ?? '', headers };
  if (found.html !== undefined) out.html = found.html;
  return out;
}
