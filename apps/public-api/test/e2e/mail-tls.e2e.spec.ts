/**
 * E-mail over implicit TLS (`LATCHKEY_SMTP_URL=smtps://user:password@host:port`), end to end: a
 * real SMTP server speaking TLS with a certificate from a throw-away CA made here with openssl,
 * and the real platform delivering an OTP mail to it. With the CA given to the platform
 * (`NODE_EXTRA_CA_CERTS`, as an operator with a private CA would), the mail arrives, sent with the
 * URL's credentials; without it, the server's certificate is refused: the activity fails with a
 * clear 503 that names the server but not the password, and nothing is sent in the clear.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Turnkey } from '@turnkey/sdk-server';
import { startLatchkey, startSmtpCapture, type TLatchkey, type TSmtpCapture } from '@latchkey/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFromMail, uniqueName } from './e2e-helpers.js';

const PASSWORD = 'tls-only-s3cret';

let certDir: string;
let smtp: TSmtpCapture;
const started: TLatchkey[] = [];

/** A CA and a certificate for localhost / 127.0.0.1 signed by it (P-256, valid two days). */
function makeCertificates(dir: string): { caFile: string; key: string; cert: string } {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Latchkey e2e CA');
  openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=localhost');
  writeFileSync(join(dir, 'ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl('x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'leaf.pem', '-days', '2', '-extfile', 'ext.cnf');
  return { caFile: join(dir, 'ca.pem'), key: readFileSync(join(dir, 'leaf.key'), 'utf8'), cert: readFileSync(join(dir, 'leaf.pem'), 'utf8') };
}

async function platform(env: Record<string, string>) {
  const latchkey = await startLatchkey({ apps: ['public-api'], env: { LATCHKEY_SMTP_URL: smtp.url, LATCHKEY_EMAIL_FROM: 'Latchkey TLS <no-reply@latchkey.test>', ...env } });
  started.push(latchkey);
  const b = latchkey.bootstrap;
  const client = new Turnkey({ apiBaseUrl: latchkey.baseUrl, apiPublicKey: b.apiPublicKey, apiPrivateKey: b.apiPrivateKey!, defaultOrganizationId: b.organizationId }).apiClient();
  return { latchkey, client };
}

beforeAll(async () => {
  certDir = mkdtempSync(join(tmpdir(), 'latchkey-smtps-'));
  const { key, cert } = makeCertificates(certDir);
  smtp = await startSmtpCapture({ tls: { key, cert }, user: 'mailer', password: PASSWORD });
}, 60_000);

afterAll(async () => {
  for (const l of started) await l.stop();
  await smtp?.stop();
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

describe('LATCHKEY_SMTP_URL with smtps://', () => {
  it('delivers the OTP mail over TLS with the URL credentials when the server certificate is trusted', async () => {
    expect(smtp.url).toMatch(/^smtps:\/\/mailer:/);
    const { client } = await platform({ NODE_EXTRA_CA_CERTS: join(certDir, 'ca.pem') });
    const contact = `${uniqueName('tls')}@example.test`.toLowerCase();
    const before = smtp.messages.length;
    const { otpId } = await client.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact, appName: 'TLS' });
    expect(otpId).toMatch(/^[0-9a-f-]{36}$/);
    const mail = await smtp.waitForMessage((m) => m.to.includes(contact) && smtp.messages.indexOf(m) >= before);
    expect(mail.authUser).toBe('mailer');
    expect(mail.from).toBe('no-reply@latchkey.test');
    expect(codeFromMail(mail)).toMatch(/^[0-9A-Z]{9}$/);
  });

  it('refuses a server certificate it cannot verify: a clear 503 naming the server, not the password, and no mail', async () => {
    const { client } = await platform({});
    const contact = `${uniqueName('untrusted')}@example.test`.toLowerCase();
    const before = smtp.messages.length;
    const failure = await client.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact, appName: 'TLS' }).then(
      () => undefined,
      (e: unknown) => e as { message: string; code?: number },
    );
    expect(failure, 'init_otp must fail when the certificate is not trusted').toBeDefined();
    expect(failure!.code).toBe(14); // gRPC UNAVAILABLE, HTTP 503
    expect(failure!.message).toContain('could not deliver the message');
    expect(failure!.message).toContain(`smtps://mailer:***@127.0.0.1:${smtp.port}`);
    expect(failure!.message).not.toContain(PASSWORD);
    expect(smtp.messages.slice(before).filter((m) => m.to.includes(contact))).toEqual([]);
  });
});
