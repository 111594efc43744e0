import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';

describe('rate-limit configuration', () => {
  it('defaults: 100 per credential (burst 200), 300 per IP (burst 600), no trusted proxy', () => {
    const c = parseConfig({});
    expect(c.rateLimits).toEqual({ perCredential: { ratePerSecond: 100, burst: 200 }, perIp: { ratePerSecond: 300, burst: 600 } });
    expect(c.trustedProxies).toEqual([]);
  });

  it('0 disables a limit; several processes each enforce their share', () => {
    expect(parseConfig({ LATCHKEY_RATE_LIMIT_KEY_RPS: '0' }).rateLimits).toEqual({ perIp: { ratePerSecond: 300, burst: 600 } });
    expect(parseConfig({ LATCHKEY_RATE_LIMIT_IP_RPS: '0', LATCHKEY_RATE_LIMIT_KEY_RPS: '0' }).rateLimits).toEqual({});
    expect(parseConfig({ LATCHKEY_RATE_LIMIT_PROCESSES: '4' }).rateLimits).toEqual({ perCredential: { ratePerSecond: 25, burst: 50 }, perIp: { ratePerSecond: 75, burst: 150 } });
    expect(parseConfig({ LATCHKEY_RATE_LIMIT_KEY_RPS: '0.5' }).rateLimits.perCredential).toEqual({ ratePerSecond: 0.5, burst: 1 });
  });

  it('reads trusted proxies as a list and refuses what is not an address or CIDR', () => {
    expect(parseConfig({ LATCHKEY_TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1,::1,fd00::/8' }).trustedProxies).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']);
    expect(() => parseConfig({ LATCHKEY_TRUSTED_PROXIES: 'proxy.internal' })).toThrow(/LATCHKEY_TRUSTED_PROXIES/);
    expect(() => parseConfig({ LATCHKEY_RATE_LIMIT_KEY_RPS: '-1' })).toThrow(/LATCHKEY_RATE_LIMIT_KEY_RPS/);
    expect(() => parseConfig({ LATCHKEY_RATE_LIMIT_PROCESSES: '0' })).toThrow(/LATCHKEY_RATE_LIMIT_PROCESSES/);
  });
});
