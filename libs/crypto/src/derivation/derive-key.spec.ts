import { HDKey } from '@scure/bip32';
import { hexToBytes, bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { encodeAddress } from '../addresses/encode-address.js';
import { toChecksumAddress } from '../addresses/ethereum.js';
import { parseDerivationPath } from './derivation-path.js';
import { createMnemonic, isValidMnemonic, SeedDeriver } from './derive-key.js';

// The well-known "test test … junk" development mnemonic (Hardhat/Foundry/Anvil): its first
// account at m/44'/60'/0'/0/0 is published as 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266.
const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

describe('derivation', () => {
  it('derives the published first dev account', () => {
    const d = SeedDeriver.fromMnemonic(DEV_MNEMONIC);
    const k = d.derive('CURVE_SECP256K1', "m/44'/60'/0'/0/0");
    expect(encodeAddress('CURVE_SECP256K1', 'ADDRESS_FORMAT_ETHEREUM', k.publicKey)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(encodeAddress('CURVE_SECP256K1', 'ADDRESS_FORMAT_ETHEREUM', d.derive('CURVE_SECP256K1', "m/44'/60'/0'/0/1").publicKey)).toBe(
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    );
  });

  it('matches BIP32 test vector 1 (chain m/0H/1)', () => {
    const xpub = 'xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ';
    const k = SeedDeriver.fromSeed(hexToBytes('000102030405060708090a0b0c0d0e0f')).derive('CURVE_SECP256K1', "m/0'/1");
    expect(bytesToHex(k.publicKey)).toBe(bytesToHex(HDKey.fromExtendedKey(xpub).publicKey!));
  });

  it('caches parents without changing results', () => {
    const a = SeedDeriver.fromMnemonic(DEV_MNEMONIC);
    const keys = Array.from({ length: 5 }, (_, i) => bytesToHex(a.derive('CURVE_SECP256K1', `m/44'/60'/0'/0/${i}`).publicKey));
    const fresh = Array.from({ length: 5 }, (_, i) => bytesToHex(SeedDeriver.fromMnemonic(DEV_MNEMONIC).derive('CURVE_SECP256K1', `m/44'/60'/0'/0/${i}`).publicKey));
    expect(keys).toEqual(fresh);
  });

  it('creates valid mnemonics of every allowed length and refuses others', () => {
    for (const n of [12, 15, 18, 21, 24]) {
      const m = createMnemonic(n);
      expect(m.split(' ')).toHaveLength(n);
      expect(isValidMnemonic(m)).toBe(true);
    }
    expect(() => createMnemonic(13)).toThrow(/mnemonic length/);
  });

  it('parses paths and refuses malformed ones', () => {
    expect(parseDerivationPath("m/44h/60'/0'/0/7").canonical).toBe("m/44'/60'/0'/0/7");
    for (const bad of ['', 'x/1', 'm/a', "m/1''", 'm/4294967296', 'm//1', "m/2147483648'"]) {
      expect(() => parseDerivationPath(bad), bad).toThrow();
    }
  });

  it('refuses address formats on the wrong curve', () => {
    expect(() => encodeAddress('CURVE_ED25519', 'ADDRESS_FORMAT_ETHEREUM', new Uint8Array(32))).toThrow(/needs curve CURVE_SECP256K1/);
  });

  it('checksums addresses per EIP-55', () => {
    // From the EIP-55 specification's examples.
    expect(toChecksumAddress('5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
    expect(toChecksumAddress('fb6916095ca1df60bb79ce92ce3ea74c37c5d359')).toBe('0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359');
  });
});
