/**
 * SLIP-0010 against every published ed25519 and nist256p1 test vector
 * (satoshilabs/slips, slip-0010.md: test vectors 1 and 2, "derivation retry", "seed retry").
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { bytesToNumberBE } from '@noble/curves/utils.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { DerivationError, parseDerivationPath } from './derivation-path.js';
import { slip10DeriveChild, slip10MasterNode, slip10PublicKey, type TSlip10Curve, type TSlip10Node } from './slip10.js';

interface TChain {
  path: string;
  chainCode: string;
  privateKey: string;
  /** As printed in the spec: ed25519 keys carry a 00 prefix there. */
  publicKey: string;
}

interface TVector {
  name: string;
  curve: TSlip10Curve;
  seed: string;
  chains: TChain[];
}

const SEED_1 = '000102030405060708090a0b0c0d0e0f';
const SEED_2 =
  'fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542';

const VECTORS: TVector[] = [
  {
    name: 'test vector 1 for nist256p1',
    curve: 'nist256p1',
    seed: SEED_1,
    chains: [
      {
        path: 'm',
        chainCode: 'beeb672fe4621673f722f38529c07392fecaa61015c80c34f29ce8b41b3cb6ea',
        privateKey: '612091aaa12e22dd2abef664f8a01a82cae99ad7441b7ef8110424915c268bc2',
        publicKey: '0266874dc6ade47b3ecd096745ca09bcd29638dd52c2c12117b11ed3e458cfa9e8',
      },
      {
        path: 'm/0H',
        chainCode: '3460cea53e6a6bb5fb391eeef3237ffd8724bf0a40e94943c98b83825342ee11',
        privateKey: '6939694369114c67917a182c59ddb8cafc3004e63ca5d3b84403ba8613debc0c',
        publicKey: '0384610f5ecffe8fda089363a41f56a5c7ffc1d81b59a612d0d649b2d22355590c',
      },
      {
        path: 'm/0H/1',
        chainCode: '4187afff1aafa8445010097fb99d23aee9f599450c7bd140b6826ac22ba21d0c',
        privateKey: '284e9d38d07d21e4e281b645089a94f4cf5a5a81369acf151a1c3a57f18b2129',
        publicKey: '03526c63f8d0b4bbbf9c80df553fe66742df4676b241dabefdef67733e070f6844',
      },
      {
        path: 'm/0H/1/2H',
        chainCode: '98c7514f562e64e74170cc3cf304ee1ce54d6b6da4f880f313e8204c2a185318',
        privateKey: '694596e8a54f252c960eb771a3c41e7e32496d03b954aeb90f61635b8e092aa7',
        publicKey: '0359cf160040778a4b14c5f4d7b76e327ccc8c4a6086dd9451b7482b5a4972dda0',
      },
      {
        path: 'm/0H/1/2H/2',
        chainCode: 'ba96f776a5c3907d7fd48bde5620ee374d4acfd540378476019eab70790c63a0',
        privateKey: '5996c37fd3dd2679039b23ed6f70b506c6b56b3cb5e424681fb0fa64caf82aaa',
        publicKey: '029f871f4cb9e1c97f9f4de9ccd0d4a2f2a171110c61178f84430062230833ff20',
      },
      {
        path: 'm/0H/1/2H/2/1000000000',
        chainCode: 'b9b7b82d326bb9cb5b5b121066feea4eb93d5241103c9e7a18aad40f1dde8059',
        privateKey: '21c4f269ef0a5fd1badf47eeacebeeaa3de22eb8e5b0adcd0f27dd99d34d0119',
        publicKey: '02216cd26d31147f72427a453c443ed2cde8a1e53c9cc44e5ddf739725413fe3f4',
      },
    ],
  },
  {
    name: 'test vector 1 for ed25519',
    curve: 'ed25519',
    seed: SEED_1,
    chains: [
      {
        path: 'm',
        chainCode: '90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb',
        privateKey: '2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7',
        publicKey: '00a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed',
      },
      {
        path: 'm/0H',
        chainCode: '8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69',
        privateKey: '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3',
        publicKey: '008c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c',
      },
      {
        path: 'm/0H/1H',
        chainCode: 'a320425f77d1b5c2505a6b1b27382b37368ee640e3557c315416801243552f14',
        privateKey: 'b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2',
        publicKey: '001932a5270f335bed617d5b935c80aedb1a35bd9fc1e31acafd5372c30f5c1187',
      },
      {
        path: 'm/0H/1H/2H',
        chainCode: '2e69929e00b5ab250f49c3fb1c12f252de4fed2c1db88387094a0f8c4c9ccd6c',
        privateKey: '92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9',
        publicKey: '00ae98736566d30ed0e9d2f4486a64bc95740d89c7db33f52121f8ea8f76ff0fc1',
      },
      {
        path: 'm/0H/1H/2H/2H',
        chainCode: '8f6d87f93d750e0efccda017d662a1b31a266e4a6f5993b15f5c1f07f74dd5cc',
        privateKey: '30d1dc7e5fc04c31219ab25a27ae00b50f6fd66622f6e9c913253d6511d1e662',
        publicKey: '008abae2d66361c879b900d204ad2cc4984fa2aa344dd7ddc46007329ac76c429c',
      },
      {
        path: 'm/0H/1H/2H/2H/1000000000H',
        chainCode: '68789923a0cac2cd5a29172a475fe9e0fb14cd6adb5ad98a3fa70333e7afa230',
        privateKey: '8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793',
        publicKey: '003c24da049451555d51a7014a37337aa4e12d41e485abccfa46b47dfb2af54b7a',
      },
    ],
  },
  {
    name: 'test vector 2 for nist256p1',
    curve: 'nist256p1',
    seed: SEED_2,
    chains: [
      {
        path: 'm',
        chainCode: '96cd4465a9644e31528eda3592aa35eb39a9527769ce1855beafc1b81055e75d',
        privateKey: 'eaa31c2e46ca2962227cf21d73a7ef0ce8b31c756897521eb6c7b39796633357',
        publicKey: '02c9e16154474b3ed5b38218bb0463e008f89ee03e62d22fdcc8014beab25b48fa',
      },
      {
        path: 'm/0',
        chainCode: '84e9c258bb8557a40e0d041115b376dd55eda99c0042ce29e81ebe4efed9b86a',
        privateKey: 'd7d065f63a62624888500cdb4f88b6d59c2927fee9e6d0cdff9cad555884df6e',
        publicKey: '039b6df4bece7b6c81e2adfeea4bcf5c8c8a6e40ea7ffa3cf6e8494c61a1fc82cc',
      },
      {
        path: 'm/0/2147483647H',
        chainCode: 'f235b2bc5c04606ca9c30027a84f353acf4e4683edbd11f635d0dcc1cd106ea6',
        privateKey: '96d2ec9316746a75e7793684ed01e3d51194d81a42a3276858a5b7376d4b94b9',
        publicKey: '02f89c5deb1cae4fedc9905f98ae6cbf6cbab120d8cb85d5bd9a91a72f4c068c76',
      },
      {
        path: 'm/0/2147483647H/1',
        chainCode: '7c0b833106235e452eba79d2bdd58d4086e663bc8cc55e9773d2b5eeda313f3b',
        privateKey: '974f9096ea6873a915910e82b29d7c338542ccde39d2064d1cc228f371542bbc',
        publicKey: '03abe0ad54c97c1d654c1852dfdc32d6d3e487e75fa16f0fd6304b9ceae4220c64',
      },
      {
        path: 'm/0/2147483647H/1/2147483646H',
        chainCode: '5794e616eadaf33413aa309318a26ee0fd5163b70466de7a4512fd4b1a5c9e6a',
        privateKey: 'da29649bbfaff095cd43819eda9a7be74236539a29094cd8336b07ed8d4eff63',
        publicKey: '03cb8cb067d248691808cd6b5a5a06b48e34ebac4d965cba33e6dc46fe13d9b933',
      },
      {
        path: 'm/0/2147483647H/1/2147483646H/2',
        chainCode: '3bfb29ee8ac4484f09db09c2079b520ea5616df7820f071a20320366fbe226a7',
        privateKey: 'bb0a77ba01cc31d77205d51d08bd313b979a71ef4de9b062f8958297e746bd67',
        publicKey: '020ee02e18967237cf62672983b253ee62fa4dd431f8243bfeccdf39dbe181387f',
      },
    ],
  },
  {
    name: 'test vector 2 for ed25519',
    curve: 'ed25519',
    seed: SEED_2,
    chains: [
      {
        path: 'm',
        chainCode: 'ef70a74db9c3a5af931b5fe73ed8e1a53464133654fd55e7a66f8570b8e33c3b',
        privateKey: '171cb88b1b3c1db25add599712e36245d75bc65a1a5c9e18d76f9f2b1eab4012',
        publicKey: '008fe9693f8fa62a4305a140b9764c5ee01e455963744fe18204b4fb948249308a',
      },
      {
        path: 'm/0H',
        chainCode: '0b78a3226f915c082bf118f83618a618ab6dec793752624cbeb622acb562862d',
        privateKey: '1559eb2bbec5790b0c65d8693e4d0875b1747f4970ae8b650486ed7470845635',
        publicKey: '0086fab68dcb57aa196c77c5f264f215a112c22a912c10d123b0d03c3c28ef1037',
      },
      {
        path: 'm/0H/2147483647H',
        chainCode: '138f0b2551bcafeca6ff2aa88ba8ed0ed8de070841f0c4ef0165df8181eaad7f',
        privateKey: 'ea4f5bfe8694d8bb74b7b59404632fd5968b774ed545e810de9c32a4fb4192f4',
        publicKey: '005ba3b9ac6e90e83effcd25ac4e58a1365a9e35a3d3ae5eb07b9e4d90bcf7506d',
      },
      {
        path: 'm/0H/2147483647H/1H',
        chainCode: '73bd9fff1cfbde33a1b846c27085f711c0fe2d66fd32e139d3ebc28e5a4a6b90',
        privateKey: '3757c7577170179c7868353ada796c839135b3d30554bbb74a4b1e4a5a58505c',
        publicKey: '002e66aa57069c86cc18249aecf5cb5a9cebbfd6fadeab056254763874a9352b45',
      },
      {
        path: 'm/0H/2147483647H/1H/2147483646H',
        chainCode: '0902fe8a29f9140480a00ef244bd183e8a13288e4412d8389d140aac1794825a',
        privateKey: '5837736c89570de861ebc173b1086da4f505d4adb387c6a1b1342d5e4ac9ec72',
        publicKey: '00e33c0f7d81d843c572275f287498e8d408654fdf0d1e065b84e2e6f157aab09b',
      },
      {
        path: 'm/0H/2147483647H/1H/2147483646H/2H',
        chainCode: '5d70af781f3a37b829f0d060924d5e960bdc02e85423494afc0b1a41bbe196d4',
        privateKey: '551d333177df541ad876a60ea71f00447931c0a9da16f227c11ea080d7391b8d',
        publicKey: '0047150c75db263559a70d5778bf36abbab30fb061ad69f69ece61a72b0cfa4fc0',
      },
    ],
  },
  {
    name: 'derivation retry for nist256p1',
    curve: 'nist256p1',
    seed: SEED_1,
    chains: [
      {
        path: 'm',
        chainCode: 'beeb672fe4621673f722f38529c07392fecaa61015c80c34f29ce8b41b3cb6ea',
        privateKey: '612091aaa12e22dd2abef664f8a01a82cae99ad7441b7ef8110424915c268bc2',
        publicKey: '0266874dc6ade47b3ecd096745ca09bcd29638dd52c2c12117b11ed3e458cfa9e8',
      },
      {
        path: 'm/28578H',
        chainCode: 'e94c8ebe30c2250a14713212f6449b20f3329105ea15b652ca5bdfc68f6c65c2',
        privateKey: '06f0db126f023755d0b8d86d4591718a5210dd8d024e3e14b6159d63f53aa669',
        publicKey: '02519b5554a4872e8c9c1c847115363051ec43e93400e030ba3c36b52a3e70a5b7',
      },
      {
        path: 'm/28578H/33941',
        chainCode: '9e87fe95031f14736774cd82f25fd885065cb7c358c1edf813c72af535e83071',
        privateKey: '092154eed4af83e078ff9b84322015aefe5769e31270f62c3f66c33888335f3a',
        publicKey: '0235bfee614c0d5b2cae260000bb1d0d84b270099ad790022c1ae0b2e782efe120',
      },
    ],
  },
  {
    name: 'seed retry for nist256p1',
    curve: 'nist256p1',
    seed: 'a7305bc8df8d0951f0cb224c0e95d7707cbdf2c6ce7e8d481fec69c7ff5e9446',
    chains: [
      {
        path: 'm',
        chainCode: '7762f9729fed06121fd13f326884c82f59aa95c57ac492ce8c9654e60efd130c',
        privateKey: '3b8c18469a4634517d6d0b65448f8e6c62091b45540a1743c5846be55d47d88f',
        publicKey: '0383619fadcde31063d8c5cb00dbfe1713f3e6fa169d8541a798752a1c1ca0cb20',
      },
    ],
  },
];

/** Uncached reference: master node, then one CKDpriv per segment. */
function deriveNode(curve: TSlip10Curve, seedHex: string, path: string): TSlip10Node {
  return parseDerivationPath(path).indexes.reduce((node, idx) => slip10DeriveChild(curve, node, idx), slip10MasterNode(curve, hexToBytes(seedHex)));
}

/** The spec prints ed25519 public keys as 00 || key; ours are the raw 32 bytes. */
function expectedPublicKey(curve: TSlip10Curve, printed: string): string {
  if (curve === 'ed25519') {
    expect(printed.slice(0, 2)).toBe('00');
    return printed.slice(2);
  }
  return printed;
}

const P256_N = p256.Point.Fn.ORDER;

describe('SLIP-0010 published vectors', () => {
  for (const vector of VECTORS) {
    describe(vector.name, () => {
      for (const chain of vector.chains) {
        it(`chain ${chain.path}`, () => {
          const node = deriveNode(vector.curve, vector.seed, chain.path);
          expect(bytesToHex(node.chainCode)).toBe(chain.chainCode);
          expect(bytesToHex(node.privateKey)).toBe(chain.privateKey);
          expect(bytesToHex(slip10PublicKey(vector.curve, node.privateKey))).toBe(expectedPublicKey(vector.curve, chain.publicKey));
        });
      }
    });
  }

  // Guards the table itself against a transcription slip: each printed public key must be the one
  // noble computes from the printed private key, independently of slip10.ts.
  it('has self-consistent key pairs in the vector table', () => {
    for (const { curve, chains } of VECTORS) {
      for (const chain of chains) {
        const sk = hexToBytes(chain.privateKey);
        const pk = curve === 'ed25519' ? `00${bytesToHex(ed25519.getPublicKey(sk))}` : bytesToHex(p256.getPublicKey(sk, true));
        expect(pk, `${curve} ${chain.path}`).toBe(chain.publicKey);
      }
    }
  });

  // The two retry vectors are only worth something if they really take the retry branch.
  it('seed retry vector: the first HMAC gives I_L >= n', () => {
    const I = hmac(sha512, utf8ToBytes('Nist256p1 seed'), hexToBytes('a7305bc8df8d0951f0cb224c0e95d7707cbdf2c6ce7e8d481fec69c7ff5e9446'));
    expect(bytesToNumberBE(I.subarray(0, 32)) >= P256_N).toBe(true);
  });

  it('derivation retry vector: m/28578H/33941 first gives I_L >= n', () => {
    const parent = deriveNode('nist256p1', SEED_1, 'm/28578H');
    const ser32 = new Uint8Array(4);
    new DataView(ser32.buffer).setUint32(0, 33941);
    // Non-hardened: the HMAC data is the compressed parent public key, not the private key.
    const I = hmac(sha512, parent.chainCode, concatBytes(p256.getPublicKey(parent.privateKey, true), ser32));
    expect(bytesToNumberBE(I.subarray(0, 32)) >= P256_N).toBe(true);
  });
});

describe('SLIP-0010 input checks', () => {
  const master = (curve: TSlip10Curve): TSlip10Node => slip10MasterNode(curve, hexToBytes(SEED_1));

  it('refuses non-hardened ed25519 children', () => {
    expect(() => slip10DeriveChild('ed25519', master('ed25519'), 1)).toThrow(DerivationError);
    expect(() => slip10DeriveChild('ed25519', master('ed25519'), 1)).toThrow(/ed25519 supports only hardened derivation/);
  });

  it('refuses seeds outside 16–64 bytes', () => {
    expect(() => slip10MasterNode('ed25519', new Uint8Array(15))).toThrow(/seed must be 16–64 bytes/);
    expect(() => slip10MasterNode('nist256p1', new Uint8Array(65))).toThrow(/seed must be 16–64 bytes/);
  });

  it('refuses indexes outside [0, 2^32-1]', () => {
    for (const bad of [-1, 2 ** 32, 1.5, Number.NaN]) {
      expect(() => slip10DeriveChild('nist256p1', master('nist256p1'), bad), String(bad)).toThrow(/index must be an integer/);
    }
  });

  it('refuses malformed parents and private keys', () => {
    const m = master('nist256p1');
    expect(() => slip10DeriveChild('nist256p1', { privateKey: m.privateKey.subarray(1), chainCode: m.chainCode }, 0)).toThrow(/parent\.privateKey must be 32 bytes/);
    expect(() => slip10DeriveChild('nist256p1', { privateKey: m.privateKey, chainCode: new Uint8Array(31) }, 0)).toThrow(/parent\.chainCode must be 32 bytes/);
    expect(() => slip10DeriveChild('nist256p1', { privateKey: new Uint8Array(32), chainCode: m.chainCode }, 0)).toThrow(/not a valid P-256 scalar/);
    expect(() => slip10PublicKey('nist256p1', new Uint8Array(32).fill(0xff))).toThrow(/not a valid P-256 scalar/);
    expect(() => slip10PublicKey('ed25519', new Uint8Array(33))).toThrow(/privateKey must be 32 bytes/);
  });

  it('refuses unknown curves', () => {
    expect(() => slip10MasterNode('secp256k1' as TSlip10Curve, hexToBytes(SEED_1))).toThrow(/curve must be one of ed25519, nist256p1/);
  });
});
