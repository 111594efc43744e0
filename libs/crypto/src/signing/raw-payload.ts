/**
 * `sign_raw_payload`: turns `{payload, encoding, hashFunction}` into the bytes a curve signs, and
 * signs them into Turnkey's `{r, s, v}` result.
 *
 * Wire format of the result, as Turnkey's own clients read it:
 * - `r`, `s`: 32 bytes each as 64 lowercase hex digits, no `0x` (clients prepend `0x` themselves:
 *   `@turnkey/ethers` builds `Signature.from({r: \`0x${r}\`, ...})`, which needs exactly 32 bytes).
 * - `v`: the recovery id as two hex digits, `"00"` or `"01"` (`@turnkey/ethers` does
 *   `parseInt(v) + 27`, `@turnkey/viem` does `BigInt(v)` and maps `0n` to 27).
 * - ed25519: `r` and `s` are the two halves of the 64-byte RFC 8032 signature (`@turnkey/solana`
 *   concatenates `r + s`), `v` is `"00"`.
 *
 * Rules on the request (a security boundary: the caller must get what they asked for or an error):
 * - ed25519 hashes internally (RFC 8032), so its hash function must be `HASH_FUNCTION_NOT_APPLICABLE`,
 *   and ECDSA curves refuse `NOT_APPLICABLE`.
 * - `HASH_FUNCTION_NO_OP` signs the payload as the digest, so it must be exactly 32 bytes.
 * - EIP-712 and EIP-7702 payloads are Ethereum-only (secp256k1); their encodings already end in a
 *   keccak256, which is the digest signed. Clients send `NO_OP` (`@turnkey/viem` does) or
 *   `KECCAK256`; both mean "sign that digest", anything else is refused.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { signSecp256k1Digest } from '../keys/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { THashFunction, TPayloadEncoding, TSignature } from '@latchkey/domain';
import type { TCurveName } from '../derivation/derive-key.js';
import { assertBytes, assertString, encodeHex } from '../encoding.js';
import { eip7702AuthorizationDigest } from '../chains/ethereum/authorization.js';
import { hashTypedData, parseTypedData } from '../chains/ethereum/eip712.js';
import { decodeHexInput } from './hex-input.js';
import { SigningError } from './signing-error.js';
import { assertNever } from '@latchkey/domain';

export interface TRawPayload {
  payload: string;
  encoding: TPayloadEncoding;
  hashFunction: THashFunction;
}

export interface TSignRawPayloadInput extends TRawPayload {
  curve: TCurveName;
  /** 32-byte private key. A secret: the caller owns it and wipes it after the call. */
  privateKey: Uint8Array;
}

const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The payload's bytes for the byte encodings (HEXADECIMAL, TEXT_UTF8). */
function payloadBytes(payload: string, encoding: 'PAYLOAD_ENCODING_HEXADECIMAL' | 'PAYLOAD_ENCODING_TEXT_UTF8'): Uint8Array {
  if (encoding === 'PAYLOAD_ENCODING_HEXADECIMAL') return decodeHexInput(payload, 'payload');
  // TextEncoder would turn a lone surrogate into U+FFFD: sign the bytes that were sent, or nothing.
  if (LONE_SURROGATE_RE.test(payload)) throw new SigningError('MALFORMED_INPUT', 'payload is not well-formed Unicode (lone surrogate)');
  return new TextEncoder().encode(payload);
}

/**
 * The bytes the curve's signer receives: a 32-byte digest for the ECDSA curves, the message itself
 * for ed25519 (which hashes internally).
 * @throws {SigningError} `INVALID_REQUEST` for a hash function or encoding the curve cannot use;
 *   `MALFORMED_INPUT` for a payload that does not decode, or a `NO_OP` payload that is not 32 bytes.
 */
export function payloadDigest(input: TRawPayload, curve: TCurveName): Uint8Array {
  assertString(input.payload, 'payload');
  const { payload, encoding, hashFunction } = input;

  if (curve === 'CURVE_ED25519') {
    if (hashFunction !== 'HASH_FUNCTION_NOT_APPLICABLE') {
      throw new SigningError('INVALID_REQUEST', `ed25519 hashes the message itself (RFC 8032): hashFunction must be HASH_FUNCTION_NOT_APPLICABLE, got ${hashFunction}`);
    }
    if (encoding !== 'PAYLOAD_ENCODING_HEXADECIMAL' && encoding !== 'PAYLOAD_ENCODING_TEXT_UTF8') {
      throw new SigningError('INVALID_REQUEST', `${encoding} is an Ethereum encoding: it needs a CURVE_SECP256K1 key, not CURVE_ED25519`);
    }
    return payloadBytes(payload, encoding);
  }
  if (curve !== 'CURVE_SECP256K1' && curve !== 'CURVE_P256') return assertNever(curve, (v) => new SigningError('INVALID_REQUEST', `unknown curve ${String(v)}`));

  if (hashFunction === 'HASH_FUNCTION_NOT_APPLICABLE') {
    throw new SigningError('INVALID_REQUEST', `HASH_FUNCTION_NOT_APPLICABLE is only for ed25519; ${curve} needs HASH_FUNCTION_NO_OP, HASH_FUNCTION_SHA256 or HASH_FUNCTION_KECCAK256`);
  }

  switch (encoding) {
    case 'PAYLOAD_ENCODING_HEXADECIMAL':
    case 'PAYLOAD_ENCODING_TEXT_UTF8': {
      const bytes = payloadBytes(payload, encoding);
      switch (hashFunction) {
        case 'HASH_FUNCTION_NO_OP':
          if (bytes.length !== 32) {
            throw new SigningError('MALFORMED_INPUT', `HASH_FUNCTION_NO_OP signs the payload as a digest: it must be exactly 32 bytes, got ${bytes.length}`);
          }
          return bytes;
        case 'HASH_FUNCTION_SHA256':
          return sha256(bytes);
        case 'HASH_FUNCTION_KECCAK256':
          return keccak_256(bytes);
        default:
          return assertNever(hashFunction, (v) => new SigningError('INVALID_REQUEST', `unknown hash function ${String(v)}`));
      }
    }
    case 'PAYLOAD_ENCODING_EIP712':
    case 'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION': {
      if (curve !== 'CURVE_SECP256K1') {
        throw new SigningError('INVALID_REQUEST', `${encoding} is an Ethereum encoding: it needs a CURVE_SECP256K1 key, not ${curve}`);
      }
      if (hashFunction !== 'HASH_FUNCTION_NO_OP' && hashFunction !== 'HASH_FUNCTION_KECCAK256') {
        throw new SigningError('INVALID_REQUEST', `${encoding} defines its own keccak256 digest: hashFunction must be HASH_FUNCTION_NO_OP or HASH_FUNCTION_KECCAK256, got ${hashFunction}`);
      }
      return encoding === 'PAYLOAD_ENCODING_EIP712' ? hashTypedData(parseTypedData(payload)) : eip7702AuthorizationDigest(payload);
    }
    default:
      return assertNever(encoding, (v) => new SigningError('INVALID_REQUEST', `unknown payload encoding ${String(v)}`));
  }
}

/**
 * Signs a raw payload with a key on `curve`, returning Turnkey's `{r, s, v}` (see the module header).
 * ECDSA signatures are deterministic (RFC 6979) and low-S.
 * @throws {SigningError} as `payloadDigest` does.
 * @throws {TypeError} if `privateKey` is not 32 bytes.
 */
export function signRawPayload(input: TSignRawPayloadInput): TSignature {
  assertBytes(input.privateKey, 'privateKey', 32);
  const { curve, privateKey } = input;
  const digest = payloadDigest(input, curve);
  switch (curve) {
    case 'CURVE_ED25519': {
      const signature = ed25519.sign(digest, privateKey);
      return { r: encodeHex(signature.subarray(0, 32)), s: encodeHex(signature.subarray(32, 64)), v: '00' };
    }
    case 'CURVE_SECP256K1': {
      const { r, s, recovery } = signSecp256k1Digest(digest, privateKey);
      return { r: encodeHex(r), s: encodeHex(s), v: recovery.toString(16).padStart(2, '0') };
    }
    case 'CURVE_P256': {
      // 'recovered' = recovery id ‖ r ‖ s. prehash: false because `digest` is already the hash.
      const signature = p256.sign(digest, privateKey, { prehash: false, lowS: true, format: 'recovered' });
      const recovery = signature[0]!;
      return { r: encodeHex(signature.subarray(1, 33)), s: encodeHex(signature.subarray(33, 65)), v: recovery.toString(16).padStart(2, '0') };
    }
    default:
      return assertNever(curve, (v) => new SigningError('INVALID_REQUEST', `unknown curve ${String(v)}`));
  }
}
