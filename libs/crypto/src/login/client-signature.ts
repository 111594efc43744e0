/**
 * `clientSignature`: the proof that the holder of the key bound into an OTP verification token
 * approves one specific use of it (protocol notes §8).
 *
 * The client signs a "token usage" JSON message with the key named in the token's `public_key`:
 * ECDSA P-256 over sha256(UTF-8 message), sent as raw r‖s hex (`@turnkey/core` converts its DER
 * signature with `fromDerSignature`); DER hex is accepted too, as the SDK has that option. Without
 * it, whoever saw a verification token in transit could log in with their own session key.
 *
 * The message is the client's exact text, so the server verifies the bytes it received and then
 * parses them (`parseTokenUsageMessage`) to check the token id and the session key; the builders
 * here reproduce core's key order for tests and for clients written against this server.
 */
import { p256 } from '@noble/curves/nist.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { decodeHex, encodeHex } from '../encoding.js';
import { ClientSignatureError } from './login-errors.js';
import { p256PublicKeyFromHex, p256SecretKeyFromHex } from './jws.js';

/** The only client-signature scheme Turnkey defines. */
export const CLIENT_SIGNATURE_SCHEME_API_P256 = 'CLIENT_SIGNATURE_SCHEME_API_P256';

/** `v1ClientSignature` as sent in `otp_login`, signup and `create_sub_organization`. */
export type TClientSignature = {
  /** The signing key (hex SEC1 P-256): must equal the verification token's `public_key`. */
  publicKey: string;
  scheme: string;
  /** The token-usage JSON text that was signed. */
  message: string;
  /** Raw r‖s hex (128 characters) or DER hex. */
  signature: string;
};

/** Fields of a signup usage (`v1SignupUsage`), in the order core writes them. */
export type TSignupUsageFields = {
  apiKeys?: unknown[];
  authenticators?: unknown[];
  oauthProviders?: unknown[];
  email?: string;
  phoneNumber?: string;
};

/** A parsed token-usage message. `usage` is the variant's object as sent. */
export type TTokenUsage =
  | {
      type: 'USAGE_TYPE_LOGIN';
      tokenId: string;
      /** `login` (core ≤ 2.8: `{publicKey}`) or `loginV2` (also binds organizationId and options). */
      variant: 'login' | 'loginV2';
      /** The session public key the login may register. */
      publicKey: string;
      usage: Record<string, unknown>;
    }
  | {
      type: 'USAGE_TYPE_SIGNUP';
      tokenId: string;
      variant: 'signup' | 'signupV2' | 'signupV3';
      usage: Record<string, unknown>;
    };

/** Bound on a message: signup usages carry attestations, so allow a generous size. */
export const MAX_CLIENT_SIGNATURE_MESSAGE_LENGTH = 262144;

function assertNonEmpty(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new TypeError(`${field} must be a non-empty string`);
  }
}

/**
 * The login usage message, byte-identical to `@turnkey/core` `getClientSignatureMessageForLogin`:
 * `{"login":{"publicKey":…},"tokenId":…,"type":"USAGE_TYPE_LOGIN"}`.
 * @throws {TypeError} for empty arguments.
 */
export function loginClientSignatureMessage(sessionPublicKey: string, tokenId: string): string {
  assertNonEmpty(sessionPublicKey, 'sessionPublicKey');
  assertNonEmpty(tokenId, 'tokenId');
  return JSON.stringify({ login: { publicKey: sessionPublicKey }, tokenId, type: 'USAGE_TYPE_LOGIN' });
}

/**
 * The signup usage message of `@turnkey/core` 2.8 `getClientSignatureMessageForSignup`:
 * `{"signupV2":{apiKeys?,authenticators?,oauthProviders?,email?,phoneNumber?},"tokenId":…,"type":"USAGE_TYPE_SIGNUP"}`.
 * As in core, arrays are included whenever given (even empty) and strings only when non-empty.
 * @throws {TypeError} for an empty tokenId.
 */
export function signupClientSignatureMessage(tokenId: string, fields: TSignupUsageFields = {}): string {
  assertNonEmpty(tokenId, 'tokenId');
  const { apiKeys, authenticators, oauthProviders, email, phoneNumber } = fields;
  const usage = {
    ...(apiKeys ? { apiKeys } : {}),
    ...(authenticators ? { authenticators } : {}),
    ...(oauthProviders ? { oauthProviders } : {}),
    ...(email ? { email } : {}),
    ...(phoneNumber ? { phoneNumber } : {}),
  };
  return JSON.stringify({ signupV2: usage, tokenId, type: 'USAGE_TYPE_SIGNUP' });
}

function badMessage(detail: string): ClientSignatureError {
  return new ClientSignatureError('MESSAGE_MALFORMED', `clientSignature message is malformed: ${detail}`);
}

function objectField(record: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = record[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badMessage(`"${key}" must be an object`);
  }
  return value as Record<string, unknown>;
}

/**
 * Parses a token-usage message: `type`, `tokenId`, and exactly one usage object matching the type
 * (`login` / `loginV2` with a `publicKey`, or `signup` / `signupV2` / `signupV3`).
 * @throws {ClientSignatureError} MESSAGE_MALFORMED
 */
export function parseTokenUsageMessage(message: string): TTokenUsage {
  if (typeof message !== 'string' || message.length > MAX_CLIENT_SIGNATURE_MESSAGE_LENGTH) {
    throw badMessage(`expected a string of at most ${MAX_CLIENT_SIGNATURE_MESSAGE_LENGTH} characters`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    throw badMessage('not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badMessage('not a JSON object');
  }
  const record = parsed as Record<string, unknown>;
  const { type, tokenId } = record;
  if (typeof tokenId !== 'string' || tokenId.length === 0) {
    throw badMessage('"tokenId" must be a non-empty string');
  }
  const loginKeys = (['login', 'loginV2'] as const).filter((key) => record[key] !== undefined);
  const signupKeys = (['signup', 'signupV2', 'signupV3'] as const).filter((key) => record[key] !== undefined);
  if (type === 'USAGE_TYPE_LOGIN') {
    const variant = loginKeys[0];
    if (loginKeys.length !== 1 || signupKeys.length !== 0 || variant === undefined) {
      throw badMessage('a USAGE_TYPE_LOGIN message must carry exactly one of "login", "loginV2"');
    }
    const usage = objectField(record, variant)!;
    const publicKey = usage['publicKey'];
    if (typeof publicKey !== 'string' || publicKey.length === 0) {
      throw badMessage(`"${variant}.publicKey" must be a non-empty string`);
    }
    return { type, tokenId, variant, publicKey, usage };
  }
  if (type === 'USAGE_TYPE_SIGNUP') {
    const variant = signupKeys[0];
    if (signupKeys.length !== 1 || loginKeys.length !== 0 || variant === undefined) {
      throw badMessage('a USAGE_TYPE_SIGNUP message must carry exactly one of "signup", "signupV2", "signupV3"');
    }
    return { type, tokenId, variant, usage: objectField(record, variant)! };
  }
  throw badMessage(`"type" is ${JSON.stringify(type)}, expected USAGE_TYPE_LOGIN or USAGE_TYPE_SIGNUP`);
}

/**
 * Signs a token-usage message the way `@turnkey/core` does (raw r‖s hex over sha256(message)).
 * For tests and clients of this server; the server itself only verifies.
 * @throws {TypeError} if the private key is not 32-byte P-256 hex or the message is empty.
 */
export function signClientSignature(message: string, privateKeyHex: string): TClientSignature {
  assertNonEmpty(message, 'message');
  const secretKey = p256SecretKeyFromHex(privateKeyHex, 'privateKeyHex');
  try {
    const digest = sha256(new TextEncoder().encode(message));
    return {
      publicKey: encodeHex(p256.getPublicKey(secretKey, true)),
      scheme: CLIENT_SIGNATURE_SCHEME_API_P256,
      message,
      signature: encodeHex(p256.sign(digest, secretKey, { prehash: false, lowS: true, format: 'compact' })),
    };
  } finally {
    secretKey.fill(0);
  }
}

function compressed(point: Uint8Array): string {
  return p256.Point.fromBytes(point).toHex(true);
}

/**
 * Verifies `clientSignature` and that it was made by `expectedPublicKey` (the verification token's
 * `public_key`; keys compare as points, so either SEC1 form matches). High-S is accepted. It does
 * not look inside the message: use {@link parseTokenUsageMessage} for the token id and session key.
 * @throws {ClientSignatureError} SCHEME_UNSUPPORTED, PUBLIC_KEY_INVALID, PUBLIC_KEY_MISMATCH,
 *   MESSAGE_MALFORMED (not a string / too long), SIGNATURE_MALFORMED, SIGNATURE_INVALID.
 * @throws {TypeError} if `expectedPublicKey` is not a P-256 public key.
 */
export function verifyClientSignature(clientSignature: TClientSignature, expectedPublicKey: string): void {
  const expected = compressed(p256PublicKeyFromHex(expectedPublicKey, 'expectedPublicKey'));
  if (typeof clientSignature !== 'object' || clientSignature === null) {
    throw new ClientSignatureError('SIGNATURE_MALFORMED', 'clientSignature must be an object {publicKey, scheme, message, signature}');
  }
  const { publicKey, scheme, message, signature } = clientSignature;
  if (scheme !== CLIENT_SIGNATURE_SCHEME_API_P256) {
    throw new ClientSignatureError(
      'SCHEME_UNSUPPORTED',
      `clientSignature scheme ${JSON.stringify(scheme)} is not ${CLIENT_SIGNATURE_SCHEME_API_P256}`,
    );
  }
  let point: Uint8Array;
  try {
    point = p256PublicKeyFromHex(publicKey, 'clientSignature.publicKey');
  } catch {
    throw new ClientSignatureError('PUBLIC_KEY_INVALID', 'clientSignature publicKey is not a P-256 public key in hex');
  }
  if (compressed(point) !== expected) {
    throw new ClientSignatureError(
      'PUBLIC_KEY_MISMATCH',
      `clientSignature publicKey ${String(publicKey)} is not the key the verification token is bound to (${expected})`,
    );
  }
  if (typeof message !== 'string' || message.length === 0 || message.length > MAX_CLIENT_SIGNATURE_MESSAGE_LENGTH) {
    throw new ClientSignatureError('MESSAGE_MALFORMED', 'clientSignature message must be a non-empty string');
  }
  const signatureBytes = typeof signature === 'string' ? decodeHex(signature) : undefined;
  // A 64-byte value is raw r‖s (what core sends); DER is 8 to 72 bytes and could, rarely, be 64 too.
  const formats: ('compact' | 'der')[] = signatureBytes?.length === 64 ? ['compact', 'der'] : ['der'];
  const parsable = signatureBytes
    ? formats.filter((format) => {
        try {
          p256.Signature.fromBytes(signatureBytes, format);
          return true;
        } catch {
          return false;
        }
      })
    : [];
  if (!signatureBytes || parsable.length === 0) {
    throw new ClientSignatureError('SIGNATURE_MALFORMED', 'clientSignature signature is neither raw r||s hex (128 characters) nor DER hex');
  }
  const digest = sha256(new TextEncoder().encode(message));
  const ok = parsable.some((format) => {
    try {
      return p256.verify(signatureBytes, digest, point, { prehash: false, lowS: false, format });
    } catch {
      return false;
    }
  });
  if (!ok) {
    throw new ClientSignatureError('SIGNATURE_INVALID', `clientSignature does not verify for public key ${expected}`);
  }
}
