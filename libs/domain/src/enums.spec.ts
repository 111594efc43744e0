import { describe, expect, it } from 'vitest';
import { ADDRESS_FORMATS, BITCOIN_ADDRESS_FORMATS, MNEMONIC_LENGTHS, ZAddressFormatSchema, ZMnemonicLengthSchema } from './enums.js';

describe('address formats', () => {
  it('lists 38 distinct formats, 20 of them bitcoin', () => {
    expect(ADDRESS_FORMATS).toHaveLength(38);
    expect(new Set(ADDRESS_FORMATS).size).toBe(38);
    expect(BITCOIN_ADDRESS_FORMATS).toHaveLength(20);
    expect(BITCOIN_ADDRESS_FORMATS[0]).toBe('ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH');
    expect(BITCOIN_ADDRESS_FORMATS[19]).toBe('ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR');
  });

  it('parses wire values and rejects others', () => {
    expect(ZAddressFormatSchema.parse('ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH')).toBe('ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH');
    expect(ZAddressFormatSchema.safeParse('ADDRESS_FORMAT_BITCOIN_FOO_P2TR').success).toBe(false);
  });
});

describe('mnemonic lengths', () => {
  it.each(MNEMONIC_LENGTHS)('accepts %d', (n) => expect(ZMnemonicLengthSchema.parse(n)).toBe(n));
  it.each([0, 13, 24.5, '12'])('rejects %j', (n) => expect(ZMnemonicLengthSchema.safeParse(n).success).toBe(false));
});
