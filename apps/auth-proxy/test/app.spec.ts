/** The proxy's HTTP surface in process: health, preflight, the refusals made before anything is forwarded. */
import { AppError, authProxySettingsOf } from '@latchkey/domain';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildAuthProxy } from '../src/app.js';
import { createCaptcha, createRateLimiter } from '../src/guards.js';
import { createPublicApiClient } from '../src/public-api-client.js';
import type { TProxyConfig } from '../src/config-source.js';

const proxy = () =>
  buildAuthProxy({
    logger: pino({ level: 'silent' }),
    ready: async () => undefined,
    deps: {
      // No public API behind this one: every config id is unknown, as the public API would say.
      configs: async (id) => {
        throw new AppError('NOT_FOUND', `auth proxy config not found or disabled: ${id}`, { configId: id });
      },
      api: createPublicApiClient('http://127.0.0.1:9'),
      limits: createRateLimiter(),
      captcha: createCaptcha({ secret: undefined, verifyUrl: 'http://127.0.0.1:9' }),
    },
  });

describe('auth proxy', () => {
  it('answers /healthz', async () => {
    const r = await proxy().inject({ method: 'GET', url: '/healthz' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'ok' });
  });

  it('answers an unknown config id with a 404 rpcStatus naming it', async () => {
    const r = await proxy().inject({ method: 'POST', url: '/v1/signup_v2', payload: '{}', headers: { 'content-type': 'application/json', 'x-auth-proxy-config-id': 'cfg-x' } });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ code: 5, message: expect.stringContaining('cfg-x') });
  });

  it('requires the config id header, and POST', async () => {
    const r = await proxy().inject({ method: 'POST', url: '/v1/otp_init_v2', payload: '{}', headers: { 'content-type': 'application/json' } });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toMatch(/X-Auth-Proxy-Config-ID/);
    expect((await proxy().inject({ method: 'GET', url: '/v1/otp_init_v2' })).statusCode).toBe(404);
  });

  it('answers any preflight with the headers a browser may send', async () => {
    const r = await proxy().inject({ method: 'OPTIONS', url: '/v1/otp_init', headers: { origin: 'https://app.example' } });
    expect(r.statusCode).toBe(204);
    for (const h of ['content-type', 'x-auth-proxy-config-id', 'x-captcha-token']) expect(String(r.headers['access-control-allow-headers'])).toContain(h);
  });
});

describe('wallet_kit_client_params', () => {
  /** A proxy serving one config (captcha on or off), with or without LATCHKEY_TURNSTILE_SITE_KEY; nothing is forwarded. */
  const withConfig = (captchaEnabled: boolean, turnstileSiteKey: string | undefined) => {
    const cfg: TProxyConfig = {
      config: { configId: 'cfg-1', organizationId: 'org-1', enabled: true, proxyUserId: 'u-1', ...authProxySettingsOf({ captchaEnabled }) },
      proxyApiPublicKey: `02${'11'.repeat(32)}`,
      sealedProxyPrivateKey: 'v1.sealed',
      otpVerifierPublicKey: `04${'22'.repeat(64)}`,
      privateKeyHex: '33'.repeat(32),
    };
    return buildAuthProxy({
      logger: pino({ level: 'silent' }),
      ready: async () => undefined,
      deps: {
        configs: async (id) => {
          if (id !== 'cfg-1') throw new AppError('NOT_FOUND', `auth proxy config not found or disabled: ${id}`);
          return cfg;
        },
        api: createPublicApiClient('http://127.0.0.1:9'),
        limits: createRateLimiter(),
        captcha: createCaptcha({ secret: undefined, verifyUrl: 'http://127.0.0.1:9' }),
        turnstileSiteKey,
      },
    });
  };
  // rwk's getClientParams: no body, Content-Type application/json (notes §A1).
  const call = (app: ReturnType<typeof withConfig>) => app.inject({ method: 'POST', url: '/v1/wallet_kit_client_params', headers: { 'content-type': 'application/json', 'x-auth-proxy-config-id': 'cfg-1' } });

  it('answers {} without captcha, whatever the site key', async () => {
    for (const key of [undefined, '1x00000000000000000000AA']) {
      const r = await call(withConfig(false, key));
      expect(r.statusCode).toBe(200);
      expect(r.json()).toEqual({});
    }
  });

  it('gives the Turnstile site key when captcha is on, and a 503 naming LATCHKEY_TURNSTILE_SITE_KEY when it is unset', async () => {
    const on = await call(withConfig(true, '1x00000000000000000000AA'));
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ turnstileSiteKey: '1x00000000000000000000AA' });
    const unset = await call(withConfig(true, undefined));
    expect(unset.statusCode).toBe(503);
    expect(unset.json()).toMatchObject({ code: 14, message: expect.stringContaining('LATCHKEY_TURNSTILE_SITE_KEY') });
  });
});
