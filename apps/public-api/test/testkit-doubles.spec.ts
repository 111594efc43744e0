/**
 * The testkit's real servers against the library code that will talk to them: the SMTP capture
 * server receives what the mailer sends, and the id-tokens of the real OpenID provider pass (and
 * fail) the verifier. Lives where both @latchkey/testkit and the delivery / identity-provider libs may
 * be imported (libraries may not import tools).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeliveryError, createMailer, readDeliveryConfig, renderEmailAuthEmail, renderOtpEmail, type TDeliveryLogger } from '@latchkey/delivery';
import { OidcError, createOidcVerifier, oidcNonceForPublicKey } from '@latchkey/identity-providers';
import { parseMail, pkcePair, startOidcProvider, startSmtpCapture, type TOidcProvider, type TSmtpCapture } from '@latchkey/testkit';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const quiet: TDeliveryLogger = { info: () => undefined, warn: () => undefined };
const PUBLIC_KEY = '026ff03b949241ce1dadd43519e6960e0a85b41a69a05c328103aa2bce1594ca16';

describe('startSmtpCapture', () => {
  let smtp: TSmtpCapture;
  let dataDir: string;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    dataDir = await mkdtemp(join(tmpdir(), 'latchkey-doubles-'));
  });
  afterAll(async () => {
    await smtp.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('captures what the mailer sends, decoded (subject, text, html, envelope, auth)', async () => {
    const mailer = createMailer(readDeliveryConfig({ LATCHKEY_SMTP_URL: smtp.url }, dataDir), quiet);
    try {
      const r = renderOtpEmail({ appName: 'Ünïcödé “Wallet”', code: 'K7Q2M9XW3', expiresInSeconds: 300, emailCustomization: { magicLinkTemplate: 'https://acme.test/otp?c=%s' } });
      await mailer.send({ to: 'alice@example.com', ...r });
      const m = await smtp.waitForMessage((x) => x.to.includes('alice@example.com'));
      expect(m.subject).toBe('Your Ünïcödé “Wallet” verification code');
      expect(m.text).toBe(r.text);
      expect(m.html).toBe(r.html);
      expect(m.from).toBe('no-reply@localhost');
      expect(m.authUser).toBe('user');
      expect(m.headers['from']).toBe('Latchkey <no-reply@localhost>');
      const bundle = '4tHmEKzQ5vGqz8oZbtq2VQ9B1kx7PsqHNw3fJm8yR6cTdLpYbW2aX5uE9sKjC1gF'.repeat(4);
      await mailer.send({ to: 'bob@example.com', ...renderEmailAuthEmail({ appName: 'Acme', credentialBundle: bundle }) });
      const b = await smtp.waitForMessage((x) => x.to.includes('bob@example.com'));
      expect(b.text).toContain(bundle);
      expect(b.html).toContain(bundle);
    } finally {
      await mailer.close();
    }
  });

  it('decodes base64 bodies and split encoded-word subjects', async () => {
    const t = createTransport({ streamTransport: true, buffer: true });
    const info = await t.sendMail({ from: 'a@b.test', to: 'c@d.test', subject: 'Привет, мир — ' + 'длинная тема '.repeat(6), text: 'Текст письма по-русски', html: '<p>Текст</p>' });
    const m = parseMail((info.message as Buffer).toString('latin1'));
    expect(m.subject).toBe('Привет, мир — ' + 'длинная тема '.repeat(6));
    expect(m.text).toBe('Текст письма по-русски');
    expect(m.html).toBe('<p>Текст</p>');
  });

  it('refuses other passwords when given one, and waitForMessage times out with a list', async () => {
    const locked = await startSmtpCapture({ password: 'only-this' });
    try {
      const url = locked.url.replace('only-this', 'not-this');
      const mailer = createMailer(readDeliveryConfig({ LATCHKEY_SMTP_URL: url }, dataDir), quiet);
      const err = await mailer.send({ to: 'a@b.test', subject: 's', text: 't' }).catch((e: unknown) => e);
      await mailer.close();
      expect(err).toBeInstanceOf(DeliveryError);
      expect((err as DeliveryError).message).not.toContain('not-this');
      await expect(locked.waitForMessage(() => true, 100)).rejects.toThrow(/no matching mail within 100 ms \(0 received: none\)/);
    } finally {
      await locked.stop();
    }
  });
});

describe('startOidcProvider with the OIDC verifier', () => {
  let idp: TOidcProvider;
  const nonce = oidcNonceForPublicKey(PUBLIC_KEY);
  beforeAll(async () => {
    idp = await startOidcProvider({
      clients: [
        { clientId: 'app', redirectUris: ['http://127.0.0.1:1/callback'] },
        { clientId: 'confidential', clientSecret: 's3cr3t/+=', redirectUris: ['http://127.0.0.1:1/cb'] },
      ],
    });
  });
  afterAll(async () => {
    await idp.stop();
  });

  it('issues genuine tokens the verifier accepts (public and confidential clients)', async () => {
    const v = createOidcVerifier();
    const token = await idp.obtainIdToken({ sub: 'user-1', clientId: 'app', nonce, email: 'u1@example.com' });
    expect(await v.verify(token, { expectedNonce: nonce, expectedAudiences: ['app'] })).toMatchObject({ iss: idp.issuer, sub: 'user-1', aud: 'app', nonce, email: 'u1@example.com', emailVerified: true });
    const conf = await idp.obtainIdToken({ sub: 'user-2', clientId: 'confidential', nonce: 'n-2' });
    expect(await v.verify(conf, { expectedAudiences: ['confidential'] })).toMatchObject({ sub: 'user-2', aud: 'confidential', nonce: 'n-2' });
  });

  it('its tokens fail on wrong nonce, wrong audience, expiry and tampering', async () => {
    const v = createOidcVerifier();
    const token = await idp.obtainIdToken({ sub: 'user-1', clientId: 'app', nonce: 'other' });
    const reason = async (p: Promise<unknown>) => ((await p.catch((e: unknown) => e)) as OidcError).reason;
    expect(await reason(v.verify(token, { expectedNonce: nonce }))).toBe('NONCE_MISMATCH');
    expect(await reason(v.verify(token, { expectedAudiences: ['confidential'] }))).toBe('AUDIENCE_MISMATCH');
    expect(await reason(v.verify(token, { now: new Date(Date.now() + 2 * 3600_000) }))).toBe('EXPIRED');
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'admin' })).toString('base64url')}.${s}`;
    expect(await reason(v.verify(forged))).toBe('SIGNATURE_INVALID');
    const wrongSig = `${h}.${p}.${s!.slice(0, -4)}${s!.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    expect(await reason(v.verify(wrongSig))).toBe('SIGNATURE_INVALID');
  });

  it('authorize returns a code (and state) that the token endpoint exchanges only with the PKCE verifier', async () => {
    const { codeVerifier, codeChallenge } = pkcePair();
    const { code, state } = await idp.authorize({ clientId: 'app', redirectUri: 'http://127.0.0.1:1/callback', sub: 'user-3', nonce: 'n-3', codeChallenge, state: 'st-1' });
    expect(state).toBe('st-1');
    const exchange = (verifier: string, c: string) =>
      fetch(idp.tokenEndpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: c, redirect_uri: 'http://127.0.0.1:1/callback', code_verifier: verifier, client_id: 'app' }).toString(),
      });
    const bad = await exchange(pkcePair().codeVerifier, code);
    expect(bad.status).toBe(400);
    // A failed exchange burns nothing for a fresh code; get another and exchange it properly.
    const again = await idp.authorize({ clientId: 'app', redirectUri: 'http://127.0.0.1:1/callback', sub: 'user-3', nonce: 'n-3', codeChallenge });
    const ok = await exchange(codeVerifier, again.code);
    expect(ok.status).toBe(200);
    const { id_token } = (await ok.json()) as { id_token: string };
    expect((await createOidcVerifier().verify(id_token, { expectedNonce: 'n-3' })).sub).toBe('user-3');
  });

  it('a short-lived token expires for real', async () => {
    // exp = iat + TTL with iat in whole seconds, so a token lives between TTL − 1 and TTL seconds:
    // 3 s leaves the first verify (its JWKS fetch included) 2 s on a loaded CI machine (with 1 s it
    // once found the token already expired), and 4.1 s later it has expired in every case.
    const short = await startOidcProvider({ clients: [{ clientId: 'app', redirectUris: ['http://127.0.0.1:1/cb'] }], idTokenTtlSeconds: 3 });
    try {
      const token = await short.obtainIdToken({ sub: 'u', clientId: 'app', nonce: 'n' });
      const v = createOidcVerifier({ clockToleranceSeconds: 0 });
      await expect(v.verify(token)).resolves.toMatchObject({ sub: 'u' });
      await new Promise((r) => setTimeout(r, 4100));
      const e = await v.verify(token).catch((err: unknown) => err);
      expect((e as OidcError).reason).toBe('EXPIRED');
    } finally {
      await short.stop();
    }
  });
});
