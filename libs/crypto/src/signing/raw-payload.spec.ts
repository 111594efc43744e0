/**
 * sign_raw_payload: every encoding and hash function, each signature checked by an independent
 * verifier (ethers recovers secp256k1 signers, noble verifies P-256 and ed25519), the {r, s, v}
 * shape read back the way @turnkey/ethers and @turnkey/viem read it, and the refusals.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { Signature, TypedDataEncoder, Wallet, hashMessage, keccak256, recoverAddress, sha256, toUtf8Bytes, verifyAuthorization, verifyTypedData } from 'ethers';
import { describe, expect, it } from 'vitest';
import { ethereumAddress } from '../addresses/ethereum.js';
import type { TCurveName } from '../derivation/derive-key.js';
import { payloadDigest, signRawPayload, type TRawPayload } from './raw-payload.js';
import { SigningError } from './signing-error.js';
import { reasonOf } from '../test-vectors.js';

const SECP_KEY = new Uint8Array(32).fill(7);
const P256_KEY = new Uint8Array(32).fill(9);
const ED_KEY = new Uint8Array(32).fill(11);
const ADDRESS = ethereumAddress(secp256k1.getPublicKey(SECP_KEY, true));

const unhex = (text: string) => new Uint8Array(Buffer.from(text.replace(/^0x/, ''), 'hex'));

/** The 65-byte signature exactly as `@turnkey/ethers`' `serializeSignature` assembles it. */
const turnkeyEthersSignature = (sig: { r: string; s: string; v: string }) => Signature.from({ r: `0x${sig.r}`, s: `0x${sig.s}`, v: parseInt(sig.v) + 27 });


const MAIL = {
  types: {
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: [{ name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' }],
    contents: 'Hello, Bob!',
  },
};

describe('signRawPayload on secp256k1 (ethers recovers the signer)', () => {
  const sign = (payload: TRawPayload) => signRawPayload({ curve: 'CURVE_SECP256K1', privateKey: SECP_KEY, ...payload });

  it('returns r and s as 64 lowercase hex digits and v as "00"/"01", as Turnkey clients parse them', () => {
    for (let i = 0; i < 16; i++) {
      const sig = sign({ payload: keccak256(toUtf8Bytes(`message ${i}`)), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' });
      expect(sig.r).toMatch(/^[0-9a-f]{64}$/);
      expect(sig.s).toMatch(/^[0-9a-f]{64}$/);
      expect(sig.v).toMatch(/^0[01]$/);
      // @turnkey/viem reads v with BigInt(v) and maps 0n to 27.
      expect([0n, 1n]).toContain(BigInt(sig.v));
      // Low-S, or ethers' Signature.from in @turnkey/ethers would refuse it as non-canonical.
      expect(BigInt(`0x${sig.s}`) <= secp256k1.Point.CURVE().n / 2n).toBe(true);
    }
  });

  it('HEXADECIMAL + NO_OP signs the 32 bytes as the digest (how @turnkey/ethers signs messages), with or without 0x', () => {
    const digest = hashMessage('hello turnkey');
    for (const payload of [digest, digest.slice(2), digest.toUpperCase().replace('0X', '0x')]) {
      const sig = sign({ payload, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' });
      expect(recoverAddress(digest, turnkeyEthersSignature(sig))).toBe(ADDRESS);
    }
  });

  it('HEXADECIMAL + KECCAK256 and SHA256 hash the decoded bytes', () => {
    const payload = '0xdeadbeef00';
    const keccak = sign({ payload, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_KECCAK256' });
    expect(recoverAddress(keccak256(payload), turnkeyEthersSignature(keccak))).toBe(ADDRESS);
    const sha = sign({ payload, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_SHA256' });
    expect(recoverAddress(sha256(payload), turnkeyEthersSignature(sha))).toBe(ADDRESS);
  });

  it('TEXT_UTF8 hashes the UTF-8 bytes of the string', () => {
    const payload = 'héllo, 世界 🌍';
    const keccak = sign({ payload, encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_KECCAK256' });
    expect(recoverAddress(keccak256(toUtf8Bytes(payload)), turnkeyEthersSignature(keccak))).toBe(ADDRESS);
    const sha = sign({ payload, encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_SHA256' });
    expect(recoverAddress(sha256(toUtf8Bytes(payload)), turnkeyEthersSignature(sha))).toBe(ADDRESS);
  });

  it('TEXT_UTF8 + NO_OP signs a 32-character ASCII string as the digest', () => {
    const payload = 'abcdefghijklmnopqrstuvwxyz012345';
    const sig = sign({ payload, encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_NO_OP' });
    expect(recoverAddress(toUtf8Bytes(payload), turnkeyEthersSignature(sig))).toBe(ADDRESS);
  });

  it('EIP712 (with NO_OP as @turnkey/viem sends it, or KECCAK256) verifies with verifyTypedData', () => {
    for (const hashFunction of ['HASH_FUNCTION_NO_OP', 'HASH_FUNCTION_KECCAK256'] as const) {
      const sig = sign({ payload: JSON.stringify(MAIL), encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction });
      expect(verifyTypedData(MAIL.domain, MAIL.types, MAIL.message, turnkeyEthersSignature(sig))).toBe(ADDRESS);
    }
  });

  it('EIP712 signatures are the ones ethers Wallet.signTypedData makes (RFC 6979 is deterministic)', async () => {
    const wallet = new Wallet(`0x${Buffer.from(SECP_KEY).toString('hex')}`);
    const expected = await wallet.signTypedData(MAIL.domain, MAIL.types, MAIL.message);
    const sig = sign({ payload: JSON.stringify(MAIL), encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction: 'HASH_FUNCTION_NO_OP' });
    expect(turnkeyEthersSignature(sig).serialized).toBe(expected);
  });

  it('EIP7702_AUTHORIZATION signs keccak256(0x05 ‖ rlp([chainId, address, nonce])), verified by ethers verifyAuthorization', () => {
    const cases = [
      { chainId: 1, address: '0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B', nonce: 0 },
      { chainId: 0, address: '0x63c0c19a282a1b52b07dd5a65b58948a07dae32b', nonce: 7 },
      { chainId: '11155111', address: '0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B', nonce: '0x2a' },
    ];
    for (const auth of cases) {
      // @turnkey/viem's signAuthorization sends JSON.stringify({address, chainId, nonce}).
      const sig = sign({ payload: JSON.stringify(auth), encoding: 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', hashFunction: 'HASH_FUNCTION_NO_OP' });
      const request = { chainId: BigInt(auth.chainId), address: auth.address, nonce: BigInt(auth.nonce) };
      expect(verifyAuthorization(request, turnkeyEthersSignature(sig))).toBe(ADDRESS);
    }
  });
});

describe('signRawPayload on P-256 and ed25519 (noble verifies)', () => {
  it('P-256 signs the SHA-256 / keccak / given digest, low-S, with v its recovery id', () => {
    const publicKey = p256.getPublicKey(P256_KEY, true);
    const message = new TextEncoder().encode('p256 payload');
    const cases: [TRawPayload, Uint8Array][] = [
      [{ payload: 'p256 payload', encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_SHA256' }, unhex(sha256(message))],
      [{ payload: Buffer.from(message).toString('hex'), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_KECCAK256' }, unhex(keccak256(message))],
      [{ payload: sha256(message), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' }, unhex(sha256(message))],
    ];
    for (const [payload, digest] of cases) {
      const sig = signRawPayload({ curve: 'CURVE_P256', privateKey: P256_KEY, ...payload });
      expect(sig.r).toMatch(/^[0-9a-f]{64}$/);
      expect(sig.s).toMatch(/^[0-9a-f]{64}$/);
      const compact = unhex(sig.r + sig.s);
      expect(p256.verify(compact, digest, publicKey, { prehash: false })).toBe(true);
      const recovered = p256.Signature.fromBytes(compact).addRecoveryBit(parseInt(sig.v, 16)).recoverPublicKey(digest);
      expect(Buffer.from(recovered.toBytes(true)).toString('hex')).toBe(Buffer.from(publicKey).toString('hex'));
    }
  });

  it('ed25519 signs the message itself: r ‖ s is the RFC 8032 signature, v is "00"', () => {
    const publicKey = ed25519.getPublicKey(ED_KEY);
    for (const [payload, encoding, message] of [
      ['0xdeadbeef', 'PAYLOAD_ENCODING_HEXADECIMAL', unhex('deadbeef')],
      ['', 'PAYLOAD_ENCODING_HEXADECIMAL', new Uint8Array(0)],
      ['solana sign-in ✓', 'PAYLOAD_ENCODING_TEXT_UTF8', new TextEncoder().encode('solana sign-in ✓')],
    ] as const) {
      const sig = signRawPayload({ curve: 'CURVE_ED25519', privateKey: ED_KEY, payload, encoding, hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE' });
      expect(sig.v).toBe('00');
      // @turnkey/solana concatenates r + s into the 64-byte signature.
      expect(ed25519.verify(unhex(sig.r + sig.s), message, publicKey)).toBe(true);
    }
  });

  it('payloadDigest agrees with ethers TypedDataEncoder.hash for EIP712', () => {
    const digest = payloadDigest({ payload: JSON.stringify(MAIL), encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction: 'HASH_FUNCTION_KECCAK256' }, 'CURVE_SECP256K1');
    expect(`0x${Buffer.from(digest).toString('hex')}`).toBe(TypedDataEncoder.hash(MAIL.domain, MAIL.types, MAIL.message));
  });
});

describe('signRawPayload refusals', () => {
  const refuse = (curve: TCurveName, payload: TRawPayload) => reasonOf(() => signRawPayload({ curve, privateKey: curve === 'CURVE_ED25519' ? ED_KEY : SECP_KEY, ...payload }));
  const digest = `0x${'ab'.repeat(32)}`;

  it('refuses any hash function but NOT_APPLICABLE for ed25519', () => {
    for (const hashFunction of ['HASH_FUNCTION_NO_OP', 'HASH_FUNCTION_SHA256', 'HASH_FUNCTION_KECCAK256'] as const) {
      expect(refuse('CURVE_ED25519', { payload: digest, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction })).toBe('INVALID_REQUEST');
    }
  });

  it('refuses NOT_APPLICABLE for the ECDSA curves', () => {
    for (const curve of ['CURVE_SECP256K1', 'CURVE_P256'] as const) {
      expect(refuse(curve, { payload: digest, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE' })).toBe('INVALID_REQUEST');
    }
  });

  it('refuses NO_OP with a payload that is not 32 bytes', () => {
    for (const payload of ['', '0x', `0x${'ab'.repeat(31)}`, `0x${'ab'.repeat(33)}`]) {
      expect(refuse('CURVE_SECP256K1', { payload, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' })).toBe('MALFORMED_INPUT');
    }
    expect(refuse('CURVE_P256', { payload: 'short text', encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_NO_OP' })).toBe('MALFORMED_INPUT');
  });

  it('refuses malformed hex', () => {
    for (const payload of ['0xabc', 'zz', '0x0g', ' 00', '0x 00']) {
      expect(refuse('CURVE_SECP256K1', { payload, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_KECCAK256' })).toBe('MALFORMED_INPUT');
    }
  });

  it('refuses text with a lone surrogate instead of signing U+FFFD', () => {
    expect(refuse('CURVE_SECP256K1', { payload: 'a\udc00', encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_KECCAK256' })).toBe('MALFORMED_INPUT');
  });

  it('refuses the Ethereum encodings on other curves and with SHA256 or NOT_APPLICABLE', () => {
    const typed = JSON.stringify(MAIL);
    expect(refuse('CURVE_P256', { payload: typed, encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction: 'HASH_FUNCTION_KECCAK256' })).toBe('INVALID_REQUEST');
    expect(refuse('CURVE_ED25519', { payload: typed, encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE' })).toBe('INVALID_REQUEST');
    expect(refuse('CURVE_SECP256K1', { payload: typed, encoding: 'PAYLOAD_ENCODING_EIP712', hashFunction: 'HASH_FUNCTION_SHA256' })).toBe('INVALID_REQUEST');
    const auth = JSON.stringify({ chainId: 1, address: '0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B', nonce: 0 });
    expect(refuse('CURVE_SECP256K1', { payload: auth, encoding: 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', hashFunction: 'HASH_FUNCTION_SHA256' })).toBe('INVALID_REQUEST');
    expect(refuse('CURVE_P256', { payload: auth, encoding: 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', hashFunction: 'HASH_FUNCTION_NO_OP' })).toBe('INVALID_REQUEST');
  });

  it('refuses malformed EIP-7702 authorizations', () => {
    const address = '0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B';
    for (const payload of [
      'not json',
      '[]',
      JSON.stringify({ chainId: 1, address, nonce: 0, extra: 1 }),
      JSON.stringify({ chainId: 1, address }),
      JSON.stringify({ chainId: -1, address, nonce: 0 }),
      JSON.stringify({ chainId: 1, address, nonce: (2n ** 64n).toString() }),
      JSON.stringify({ chainId: 1, address: '0x63c0c19a282a1B52b07dD5a65b58948A07DAE32b', nonce: 0 }),
      JSON.stringify({ chainId: 1, address: '63c0c19a282a1b52b07dd5a65b58948a07dae32b', nonce: 0 }),
    ]) {
      expect(refuse('CURVE_SECP256K1', { payload, encoding: 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION', hashFunction: 'HASH_FUNCTION_NO_OP' })).toBe('MALFORMED_INPUT');
    }
  });

  it('refuses a private key that is not 32 bytes as a programming error', () => {
    expect(() =>
      signRawPayload({ curve: 'CURVE_SECP256K1', privateKey: new Uint8Array(31), payload: digest, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' }),
    ).toThrow(TypeError);
  });
});
