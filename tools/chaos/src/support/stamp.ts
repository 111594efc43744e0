/**
 * API-key stamps made here, over exact bytes: the fuzz sends bodies no JSON serialiser would write
 * (invalid UTF-8, megabytes of nesting), and each still has to carry a valid signature so that it
 * reaches validation. `SIGNATURE_SCHEME_TK_API_P256` as Turnkey's ApiKeyStamper makes it: ECDSA
 * P-256 / SHA-256 over the body, DER in hex, in base64url JSON under `X-Stamp` — signed with
 * node:crypto (OpenSSL), so stamping never limits the request rate.
 */
import { createECDH, createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export interface TApiKeyPair {
  /** Compressed SEC1 P-256 public key, hex (what Turnkey calls apiPublicKey). */
  publicKey: string;
  /** The private scalar, hex. */
  privateKey: string;
}

export interface TStamper {
  readonly publicKey: string;
  /** The `X-Stamp` header value for exactly these bytes. */
  stamp(body: Uint8Array | string): string;
}

const b64url = (buf: Buffer): string => buf.toString('base64url');

/** A fresh P-256 key pair in Turnkey's hex forms. */
export function generateApiKeyPair(): TApiKeyPair {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x!, 'base64url');
  const y = Buffer.from(jwk.y!, 'base64url');
  return { publicKey: `${(y[31]! & 1) === 1 ? '03' : '02'}${x.toString('hex')}`, privateKey: Buffer.from(jwk.d!, 'base64url').toString('hex') };
}

function keyObjectOf(privateKeyHex: string): { key: KeyObject; publicKey: string } {
  const d = Buffer.from(privateKeyHex.padStart(64, '0'), 'hex');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const uncompressed = ecdh.getPublicKey();
  const x = uncompressed.subarray(1, 33);
  const y = uncompressed.subarray(33, 65);
  const key = createPrivateKey({ key: { kty: 'EC', crv: 'P-256', d: b64url(d), x: b64url(x), y: b64url(y) }, format: 'jwk' });
  return { key, publicKey: ecdh.getPublicKey('hex', 'compressed') };
}

/**
 * A stamper for a key pair. The public key it announces is derived from the private key unless
 * `claimedPublicKey` is given (the "bad signature" case: someone else's key, our signature).
 * @throws Error when the private key is not a P-256 scalar in hex.
 */
export function createStamper(pair: Pick<TApiKeyPair, 'privateKey'>, claimedPublicKey?: string): TStamper {
  if (!/^[0-9a-fA-F]{1,64}$/.test(pair.privateKey)) throw new Error('createStamper: privateKey must be a P-256 scalar in hex');
  const { key, publicKey } = keyObjectOf(pair.privateKey);
  const announced = claimedPublicKey ?? publicKey;
  return {
    publicKey: announced,
    stamp(body) {
      const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
      const signature = sign('sha256', bytes, key).toString('hex');
      return b64url(Buffer.from(JSON.stringify({ publicKey: announced, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature }), 'utf8'));
    },
  };
}
