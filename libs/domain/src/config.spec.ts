/** parseConfig: LATCHKEY_PUBLIC_URL and the publicUrl derived from host and port without it. */
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, parseConfig } from './config.js';

describe('parseConfig publicUrl', () => {
  it('defaults to http://<host>:<public API port>', () => {
    expect(parseConfig({}).publicUrl).toBe('http://127.0.0.1:8080');
    expect(parseConfig({ LATCHKEY_HOST: 'localhost', LATCHKEY_PUBLIC_API_PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    expect(parseConfig({ LATCHKEY_HOST: '::1' }).publicUrl).toBe('http://[::1]:8080');
  });

  it('takes LATCHKEY_PUBLIC_URL without its trailing slash', () => {
    expect(parseConfig({ LATCHKEY_PUBLIC_URL: 'https://wallet.example.com/' }).publicUrl).toBe('https://wallet.example.com');
    expect(parseConfig({ LATCHKEY_PUBLIC_URL: 'https://example.com/latchkey' }).publicUrl).toBe('https://example.com/latchkey');
    expect(parseConfig({ LATCHKEY_PUBLIC_URL: '' }).publicUrl).toBe('http://127.0.0.1:8080');
  });

  it.each(['wallet.example.com', 'ftp://example.com', 'https://user:pw@example.com', 'https://example.com/?a=1', 'https://example.com/#x'])('refuses %s, naming the variable', (value) => {
    expect(() => parseConfig({ LATCHKEY_PUBLIC_URL: value })).toThrow(/LATCHKEY_PUBLIC_URL/);
  });

  it('documents the variable', () => {
    expect(CONFIG_VARIABLES.LATCHKEY_PUBLIC_URL).toMatch(/issuer/);
  });
});
