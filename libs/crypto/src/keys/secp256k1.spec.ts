import { secp256k1 as noble } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SECP256K1_SIGNER, SECP256K1_SIGNERS, signSecp256k1Digest } from './secp256k1.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const CURVE_ORDER = noble.Point.Fn.ORDER;
const scalar = (n: bigint) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));

describe('signSecp256k1Digest (libsecp256k1)', () => {
  it('gives the well-known RFC 6979 signature for key 1 and sha256("Satoshi Nakamoto")', () => {
    const sig = signSecp256k1Digest(sha256(new TextEncoder().encode('Satoshi Nakamoto')), scalar(1n));
    expect(hex(sig.r)).toBe('934b1ea10a4b3c1757e2b0c017d0b6143ce3c9a7e6a4a49860d7a6ab210ee3d8');
    expect(hex(sig.s)).toBe('2442ce9d2b916064108014783e923ec36b49743e2ffa1c4496f01a512aafd9e5');
  });

  it('gives the same bytes and recovery id as noble, and noble verifies and recovers them (300 random keys)', () => {
    for (let i = 0; i < 300; i++) {
      const key = randomBytes(32);
      const digest = randomBytes(32);
      const ours = signSecp256k1Digest(digest, key);
      const theirs = noble.sign(digest, key, { prehash: false, lowS: true, format: 'recovered' });
      expect(hex(Uint8Array.from([ours.recovery, ...ours.r, ...ours.s]))).toBe(hex(theirs));
      const compact = Uint8Array.from([...ours.r, ...ours.s]);
      expect(noble.verify(compact, digest, noble.getPublicKey(key), { prehash: false, lowS: true })).toBe(true);
      const recovered = noble.recoverPublicKey(Uint8Array.from([ours.recovery, ...compact]), digest, { prehash: false });
      expect(hex(recovered)).toBe(hex(noble.getPublicKey(key, true)));
    }
  });

  it('signs natively on this platform (linux x64 has a prebuilt binary), with the same bytes as the WebAssembly build', () => {
    // Other platforms may fall back to WebAssembly; this machine and CI must not, silently.
    if (process.platform === 'linux' && process.arch === 'x64') expect(SECP256K1_SIGNER).toBe('native');
    const native = SECP256K1_SIGNERS.native;
    if (!native) {
      expect(SECP256K1_SIGNER).toBe('wasm');
      return;
    }
    for (let i = 0; i < 300; i++) {
      const key = randomBytes(32);
      const digest = randomBytes(32);
      const a = native(digest, key);
      const b = SECP256K1_SIGNERS.wasm(digest, key);
      expect([hex(a.r), hex(a.s), a.recovery]).toEqual([hex(b.r), hex(b.s), b.recovery]);
    }
  });

  // signSecp256k1Digest itself, and each build it may choose.
  const signers = [['signSecp256k1Digest', signSecp256k1Digest], ...Object.entries(SECP256K1_SIGNERS)] as const;
  it.each(signers)('%s: refuses keys outside the curve order and digests that are not 32 bytes', (_name, sign) => {
    const digest = randomBytes(32);
    expect(() => sign(digest, scalar(0n))).toThrow();
    expect(() => sign(digest, scalar(CURVE_ORDER))).toThrow();
    expect(() => sign(digest, randomBytes(31))).toThrow();
    expect(() => sign(randomBytes(31), randomBytes(32))).toThrow();
    expect(sign(digest, scalar(CURVE_ORDER - 1n)).r.length).toBe(32);
  });
});
