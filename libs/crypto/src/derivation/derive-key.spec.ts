import { HDKey } from '@scure/bip32';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes, bytesToHex } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeAddress } from '../addresses/encode-address.js';
import { toChecksumAddress } from '../addresses/ethereum.js';
import { DerivationError, HARDENED_OFFSET, parseDerivationPath } from './derivation-path.js';
import { createMnemonic, isValidMnemonic, mnemonicToSeed, SeedDeriver, type TCurveName } from './derive-key.js';
import { slip10DeriveChild, slip10MasterNode, slip10PublicKey, type TSlip10Curve } from './slip10.js';

// The well-known "test test … junk" development mnemonic (Hardhat/Foundry/Anvil): its first
// account at m/44'/60'/0'/0/0 is published as 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266.
const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

const SEED_1 = '000102030405060708090a0b0c0d0e0f';
const SEED_2 =
  'fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542';

// BIP-0032 test vector 1 (the same values are reprinted as SLIP-0010 "test vector 1 for secp256k1").
const BIP32_VECTOR_1 = [
  {
    path: 'm',
    chainCode: '873dff81c02f525623fd1fe5167eac3a55a049de3d314bb42ee227ffed37d508',
    privateKey: 'e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35',
    publicKey: '0339a36013301597daef41fbe593a02cc513d0b55527ec2df1050e2e8ff49c85c2',
  },
  {
    path: 'm/0H',
    chainCode: '47fdacbd0f1097043b78c63c20c34ef4ed9a111d980047ad16282c7ae6236141',
    privateKey: 'edb2e14f9ee77d26dd93b4ecede8d16ed408ce149b6cd80b0715a2d911a0afea',
    publicKey: '035a784662a4a20a65bf6aab9ae98a6c068a81c52e4b032c0fb5400c706cfccc56',
  },
  {
    path: 'm/0H/1',
    chainCode: '2a7857631386ba23dacac34180dd1983734e444fdbf774041578e9b6adb37c19',
    privateKey: '3c6cb8d0f6a264c91ea8b5030fadaa8e538b020f0a387421a12de9319dc93368',
    publicKey: '03501e454bf00751f24b1b489aa925215d66af2234e3891c3b21a52bedb3cd711c',
  },
  {
    path: 'm/0H/1/2H',
    chainCode: '04466b9cc8e161e966409ca52986c584f07e9dc81f735db683c3ff6ec7b1503f',
    privateKey: 'cbce0d719ecf7431d88e6a89fa1483e02e35092af60c042b1df2ff59fa424dca',
    publicKey: '0357bfe1e341d01c69fe5654309956cbea516822fba8a601743a012a7896ee8dc2',
  },
  {
    path: 'm/0H/1/2H/2',
    chainCode: 'cfb71883f01676f587d023cc53a35bc7f88f724b1f8c2892ac1275ac822a3edd',
    privateKey: '0f479245fb19a38a1954c5c7c0ebab2f9bdfd96a17563ef28a6a4b1a2a764ef4',
    publicKey: '02e8445082a72f29b75ca48748a914df60622a609cacfce8ed0e35804560741d29',
  },
  {
    path: 'm/0H/1/2H/2/1000000000',
    chainCode: 'c783e67b921d2beb8f6b389cc646d7263b4145701dadd2161548a8b078e65e9e',
    privateKey: '471b76e389e528d6de6d816857e012c5455051cad6660850e58372a6c3e6e7c8',
    publicKey: '022a471424da5e657499d1ff51cb43c47481a03b1e77f951fe64cec9f5a48f7011',
  },
] as const;

describe('derivation', () => {
  it('derives the published first dev account', () => {
    const d = SeedDeriver.fromMnemonic(DEV_MNEMONIC);
    const k = d.derive('CURVE_SECP256K1', "m/44'/60'/0'/0/0");
    expect(encodeAddress('CURVE_SECP256K1', 'ADDRESS_FORMAT_ETHEREUM', k.publicKey)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(encodeAddress('CURVE_SECP256K1', 'ADDRESS_FORMAT_ETHEREUM', d.derive('CURVE_SECP256K1', "m/44'/60'/0'/0/1").publicKey)).toBe(
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    );
  });

  it('matches BIP32 test vector 1 (chain m/0H/1, as an xpub)', () => {
    const xpub = 'xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ';
    const k = SeedDeriver.fromSeed(hexToBytes(SEED_1)).derive('CURVE_SECP256K1', "m/0'/1");
    expect(bytesToHex(k.publicKey)).toBe(bytesToHex(HDKey.fromExtendedKey(xpub).publicKey!));
  });

  describe('BIP32 test vector 1 through SeedDeriver (secp256k1)', () => {
    const deriver = SeedDeriver.fromSeed(hexToBytes(SEED_1));
    for (const chain of BIP32_VECTOR_1) {
      it(`chain ${chain.path}`, () => {
        const k = deriver.derive('CURVE_SECP256K1', chain.path);
        expect(k.path).toBe(parseDerivationPath(chain.path).canonical);
        expect(bytesToHex(k.privateKey)).toBe(chain.privateKey);
        expect(bytesToHex(k.publicKey)).toBe(chain.publicKey);
        expect(bytesToHex(k.uncompressedPublicKey!)).toBe(bytesToHex(secp256k1.getPublicKey(hexToBytes(chain.privateKey), false)));
        // Cross-checks of the table itself: the public key from noble, the chain code from a
        // fresh HDKey walk (SeedDeriver does not expose chain codes).
        expect(bytesToHex(secp256k1.getPublicKey(hexToBytes(chain.privateKey), true))).toBe(chain.publicKey);
        const reference = HDKey.fromMasterSeed(hexToBytes(SEED_1)).derive(k.path);
        expect(bytesToHex(reference.chainCode!)).toBe(chain.chainCode);
        expect(bytesToHex(reference.privateKey!)).toBe(chain.privateKey);
      });
    }
  });

  // Full SLIP-0010 vector coverage is in slip10.spec.ts; these check SeedDeriver's wiring and
  // output shapes on the deepest chain of a few of those vectors.
  it('derives SLIP-0010 ed25519 keys: raw 32-byte public key', () => {
    const k = SeedDeriver.fromSeed(hexToBytes(SEED_1)).derive('CURVE_ED25519', 'm/0H/1H/2H/2H/1000000000H');
    expect(k.path).toBe("m/0'/1'/2'/2'/1000000000'");
    expect(bytesToHex(k.privateKey)).toBe('8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793');
    expect(bytesToHex(k.publicKey)).toBe('3c24da049451555d51a7014a37337aa4e12d41e485abccfa46b47dfb2af54b7a');
  });

  it('derives SLIP-0010 P-256 keys, non-hardened segments included: compressed public key', () => {
    const k1 = SeedDeriver.fromSeed(hexToBytes(SEED_1)).derive('CURVE_P256', 'm/0H/1/2H/2/1000000000');
    expect(bytesToHex(k1.privateKey)).toBe('21c4f269ef0a5fd1badf47eeacebeeaa3de22eb8e5b0adcd0f27dd99d34d0119');
    expect(bytesToHex(k1.publicKey)).toBe('02216cd26d31147f72427a453c443ed2cde8a1e53c9cc44e5ddf739725413fe3f4');
    const k2 = SeedDeriver.fromSeed(hexToBytes(SEED_2)).derive('CURVE_P256', 'm/0/2147483647H/1/2147483646H/2');
    expect(bytesToHex(k2.privateKey)).toBe('bb0a77ba01cc31d77205d51d08bd313b979a71ef4de9b062f8958297e746bd67');
    expect(bytesToHex(k2.publicKey)).toBe('020ee02e18967237cf62672983b253ee62fa4dd431f8243bfeccdf39dbe181387f');
    // The derivation-retry vector, through the cache.
    const k3 = SeedDeriver.fromSeed(hexToBytes(SEED_1)).derive('CURVE_P256', 'm/28578H/33941');
    expect(bytesToHex(k3.privateKey)).toBe('092154eed4af83e078ff9b84322015aefe5769e31270f62c3f66c33888335f3a');
  });

  it('refuses a non-hardened ed25519 segment, naming it', () => {
    const d = SeedDeriver.fromMnemonic(DEV_MNEMONIC);
    expect(() => d.derive('CURVE_ED25519', "m/44'/501'/0'/0")).toThrow(DerivationError);
    expect(() => d.derive('CURVE_ED25519', "m/44'/501'/0'/0")).toThrow(/ed25519 supports only hardened derivation.*segment "0" of m\/44'\/501'\/0'\/0 is not hardened/);
    expect(() => d.derive('CURVE_ED25519', "m/44'/7/0'")).toThrow(/segment "7" of/);
    expect(d.derive('CURVE_ED25519', "m/44'/501'/0'/0'").publicKey).toHaveLength(32);
  });

  it('refuses unsupported curves', () => {
    const d = SeedDeriver.fromSeed(hexToBytes(SEED_1));
    expect(() => d.derive('CURVE_SECP256R1' as TCurveName, 'm/0')).toThrow(/unsupported curve "CURVE_SECP256R1"/);
  });

  it('hands out copies: wiping a returned key does not corrupt the cache', () => {
    for (const curve of ['CURVE_SECP256K1', 'CURVE_ED25519', 'CURVE_P256'] as const) {
      const d = SeedDeriver.fromSeed(hexToBytes(SEED_1));
      d.derive(curve, "m/44'/1'/0'"); // caches m/44' and m/44'/1'
      for (const path of ['m', "m/44'", "m/44'/1'"]) d.derive(curve, path).privateKey.fill(0);
      const again = bytesToHex(d.derive(curve, "m/44'/1'/1'").privateKey);
      expect(again, curve).toBe(bytesToHex(SeedDeriver.fromSeed(hexToBytes(SEED_1)).derive(curve, "m/44'/1'/1'").privateKey));
    }
  });

  it('derives the same secp256k1 leaves as HDKey.deriveChild, hardened or not, deep or at depth 1', () => {
    const seed = hexToBytes(SEED_2);
    const d = SeedDeriver.fromSeed(seed);
    for (const path of ["m/0", "m/0'", "m/44'/60'/0'/0/0", "m/44'/60'/0'/0/2147483647", "m/44'/60'/0'/0'/2147483647'", "m/1/2/3/4/5/6/7"]) {
      const k = d.derive('CURVE_SECP256K1', path);
      const reference = HDKey.fromMasterSeed(seed).derive(path);
      expect(bytesToHex(k.privateKey), path).toBe(bytesToHex(reference.privateKey!));
      expect(bytesToHex(k.publicKey), path).toBe(bytesToHex(reference.publicKey!));
      expect(bytesToHex(k.uncompressedPublicKey!), path).toBe(bytesToHex(secp256k1.getPublicKey(reference.privateKey!, false)));
    }
  });

  it('builds the master node as HDKey does (16- to 64-byte seeds), and refuses the seed lengths it refuses', () => {
    for (const seed of [new Uint8Array(16).fill(7), hexToBytes(SEED_2), new Uint8Array(64).fill(9)]) {
      const k = SeedDeriver.fromSeed(seed).derive('CURVE_SECP256K1', 'm');
      const reference = HDKey.fromMasterSeed(seed);
      expect(bytesToHex(k.privateKey)).toBe(bytesToHex(reference.privateKey!));
      expect(bytesToHex(k.publicKey)).toBe(bytesToHex(reference.publicKey!));
      expect(bytesToHex(k.uncompressedPublicKey!)).toBe(bytesToHex(secp256k1.getPublicKey(reference.privateKey!, false)));
    }
    for (const bad of [new Uint8Array(15).fill(1), new Uint8Array(65).fill(1)]) expect(() => SeedDeriver.fromSeed(bad)).toThrow(/seed length/);
  });

  it('caches parents without changing results', () => {
    const a = SeedDeriver.fromMnemonic(DEV_MNEMONIC);
    const keys = Array.from({ length: 5 }, (_, i) => bytesToHex(a.derive('CURVE_SECP256K1', `m/44'/60'/0'/0/${i}`).publicKey));
    const fresh = Array.from({ length: 5 }, (_, i) => bytesToHex(SeedDeriver.fromMnemonic(DEV_MNEMONIC).derive('CURVE_SECP256K1', `m/44'/60'/0'/0/${i}`).publicKey));
    expect(keys).toEqual(fresh);
  });

  describe('cached derivation agrees with an uncached walk from the seed (property)', () => {
    const seed = hexToBytes(SEED_2);
    // Small indexes most of the time so that random paths share prefixes and hit the cache.
    const childNumber = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: HARDENED_OFFSET - 1 }));
    const segment = (hardenedOnly: boolean) =>
      fc.tuple(childNumber, hardenedOnly ? fc.constant(true) : fc.boolean()).map(([n, hardened]) => (hardened ? `${n}'` : String(n)));
    const paths = (hardenedOnly: boolean) =>
      fc.array(fc.array(segment(hardenedOnly), { maxLength: 5 }).map((segs) => ['m', ...segs].join('/')), { minLength: 1, maxLength: 4 });

    function uncached(curve: TCurveName, path: string): { privateKey: string; publicKey: string } {
      if (curve === 'CURVE_SECP256K1') {
        const node = HDKey.fromMasterSeed(seed).derive(path);
        return { privateKey: bytesToHex(node.privateKey!), publicKey: bytesToHex(node.publicKey!) };
      }
      const slip10Curve: TSlip10Curve = curve === 'CURVE_ED25519' ? 'ed25519' : 'nist256p1';
      const node = parseDerivationPath(path).indexes.reduce((n, idx) => slip10DeriveChild(slip10Curve, n, idx), slip10MasterNode(slip10Curve, seed));
      return { privateKey: bytesToHex(node.privateKey), publicKey: bytesToHex(slip10PublicKey(slip10Curve, node.privateKey)) };
    }

    const cases: [TCurveName, boolean][] = [
      ['CURVE_SECP256K1', true],
      ['CURVE_ED25519', true],
      ['CURVE_P256', true],
      ['CURVE_SECP256K1', false],
      ['CURVE_P256', false],
    ];
    for (const [curve, hardenedOnly] of cases) {
      it(`${curve}, ${hardenedOnly ? 'hardened' : 'mixed'} paths`, () => {
        // One deriver across all runs: its cache keeps growing, as in a long batch.
        const shared = SeedDeriver.fromSeed(seed);
        fc.assert(
          fc.property(paths(hardenedOnly), (batch) => {
            for (const path of batch) {
              const k = shared.derive(curve, path);
              expect({ privateKey: bytesToHex(k.privateKey), publicKey: bytesToHex(k.publicKey) }).toEqual(uncached(curve, path));
              // secp256k1 also hands out the uncompressed form of the same point; the others none.
              if (curve === 'CURVE_SECP256K1') expect(bytesToHex(k.uncompressedPublicKey!)).toBe(bytesToHex(secp256k1.Point.fromBytes(k.publicKey).toBytes(false)));
              else expect(k.uncompressedPublicKey).toBeUndefined();
            }
          }),
          { numRuns: 40 },
        );
      });
    }
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

  it('computes BIP39 seeds exactly as @scure/bip39 does', async () => {
    const { mnemonicToSeedSync } = await import('@scure/bip39');
    for (const words of [12, 24]) {
      const m = createMnemonic(words);
      expect(Buffer.from(mnemonicToSeed(m)).toString('hex')).toBe(Buffer.from(mnemonicToSeedSync(m)).toString('hex'));
    }
    expect(Buffer.from(mnemonicToSeed(DEV_MNEMONIC)).toString('hex')).toBe(Buffer.from(mnemonicToSeedSync(DEV_MNEMONIC)).toString('hex'));
  });
});
