import { describe, expect, it } from 'vitest';
import { decodeBase64Any, decodeHex, isHex } from './encoding.js';

describe('isHex / decodeHex', () => {
  it('accepts even-length hex in either case, the empty string included', () => {
    for (const ok of ['', '00', 'aB', '0123456789abcdefABCDEF']) expect(isHex(ok)).toBe(true);
    expect(decodeHex('0aFf')).toEqual(new Uint8Array([0x0a, 0xff]));
  });
  it('refuses odd lengths, other characters, prefixes and whitespace', () => {
    for (const bad of ['0', 'abc', '0x00', 'zz', '00 ', ' 00', '0g', '00\n']) {
      expect(isHex(bad)).toBe(false);
      expect(decodeHex(bad)).toBeUndefined();
    }
  });
});

describe('decodeBase64Any', () => {
  const bytes = new Uint8Array([0xfb, 0xff, 0xbf, 0x01]);
  it('reads base64url and standard base64, with or without padding, to the same bytes', () => {
    for (const text of ['-_-_AQ', '-_-_AQ==', '+/+/AQ', '+/+/AQ==']) expect(decodeBase64Any(text)).toEqual(bytes);
  });
  it('refuses non-canonical trailing bits, wrong padding, impossible lengths and other characters', () => {
    for (const bad of ['AR', 'AQ=', 'AQ===', 'A', 'AQ.', 'A Q', 'AQ==AQ']) expect(decodeBase64Any(bad)).toBeUndefined();
  });
  it('returns a copy, not a view of a shared buffer', () => {
    const out = decodeBase64Any('AQID')!;
    expect(out.byteOffset).toBe(0);
    expect(out.buffer.byteLength).toBe(3);
  });
});
