/**
 * A software WebAuthn authenticator (and the browser around it) for tests: it registers a P-256
 * passkey with a real CBOR attestation object and signs `X-Stamp-Webauthn` assertions, so passkey
 * flows can run end to end without a browser.
 *
 * What it produces is what a browser + platform authenticator send to Turnkey:
 * - registration (`authenticators[].attestation`): `{credentialId, clientDataJson,
 *   attestationObject, transports}`, all base64url, transports as `AUTHENTICATOR_TRANSPORT_*`;
 *   format `none` (what browsers send for `attestation: "none"`) or `packed` self-attestation
 *   (ES256 over authData ‖ sha256(clientDataJSON) with the credential key itself);
 * - stamps (protocol notes §2): the plain-JSON header whose clientData challenge is
 *   base64url(utf8(hex(sha256(body)))), with UP/UV flags and an incrementing signature counter,
 *   signed (DER ES256) over authenticatorData ‖ sha256(clientDataJSON).
 * `stamper` plugs into `@turnkey/http`'s `TurnkeyClient` like `@turnkey/webauthn-stamper` does.
 *
 * It depends only on node:crypto; the CBOR encoder below covers the few types WebAuthn uses.
 * Test-only: the private key lives in memory and is never exported.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

export type TSoftwareAuthenticatorOptions = {
  /** The relying-party id whose SHA-256 starts authenticator data, e.g. `localhost`. */
  rpId: string;
  /** The origin written into clientDataJSON, e.g. `http://localhost:3000`. */
  origin: string;
  /** Sets the UV flag (default true). */
  userVerification?: boolean;
  /** Sets BE/BS, like a synced passkey (default false). */
  backupEligible?: boolean;
  /** Counter step per assertion (default 1; 0 imitates authenticators that keep no counter). */
  signCountStep?: number;
  /** 16-byte AAGUID as hex (default all zeros, as `none` attestations report). */
  aaguidHex?: string;
};

export type TSoftwareAttestationFormat = 'none' | 'packed';

/** `v1Attestation`, as Turnkey clients send it. */
export type TSoftwareAttestation = {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL'];
};

/** `v1AuthenticatorParamsV2`, ready to put in `authenticators[]` of an intent. */
export type TSoftwareAuthenticatorParams = {
  authenticatorName: string;
  challenge: string;
  attestation: TSoftwareAttestation;
};

/** The `@turnkey/http` `TStamper` shape. */
export type TWebauthnTestStamper = {
  stamp(payload: string): Promise<{ stampHeaderName: 'X-Stamp-Webauthn'; stampHeaderValue: string }>;
};

export type TSoftwareAuthenticator = {
  readonly rpId: string;
  readonly origin: string;
  /** base64url (no padding) of the 32-byte credential id. */
  readonly credentialId: string;
  /** Compressed SEC1 P-256 public key, hex (the form Latchkey stores). */
  readonly publicKey: string;
  /** Uncompressed SEC1 P-256 public key, hex (`04…`). */
  readonly publicKeyUncompressed: string;
  /** The counter the last registration or assertion reported. */
  readonly signCount: number;
  /** Answers `navigator.credentials.create` for `challenge` (base64url, as in the intent). */
  register(challenge: string, options?: { format?: TSoftwareAttestationFormat }): TSoftwareAttestation;
  /** A fresh random challenge and its registration, as `authenticators[]` entries carry them. */
  authenticatorParams(authenticatorName: string, options?: { format?: TSoftwareAttestationFormat }): TSoftwareAuthenticatorParams;
  /** The `X-Stamp-Webauthn` header value for the exact request body. */
  stamp(body: string): string;
  stamper: TWebauthnTestStamper;
};

// --- A minimal CBOR encoder (RFC 8949): unsigned/negative integers, byte and text strings,
// arrays and maps (a Map keeps the caller's key order, so output is the canonical order given).

type TCbor = number | string | Uint8Array | TCbor[] | Map<number | string, TCbor>;

function cborHead(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value]);
  if (value < 0x100) return Buffer.from([(major << 5) | 24, value]);
  if (value < 0x10000) {
    const out = Buffer.alloc(3);
    out[0] = (major << 5) | 25;
    out.writeUInt16BE(value, 1);
    return out;
  }
  if (value < 0x100000000) {
    const out = Buffer.alloc(5);
    out[0] = (major << 5) | 26;
    out.writeUInt32BE(value, 1);
    return out;
  }
  const out = Buffer.alloc(9);
  out[0] = (major << 5) | 27;
  out.writeBigUInt64BE(BigInt(value), 1);
  return out;
}

/** Encodes `value` as CBOR (definite lengths only). */
export function encodeCbor(value: TCbor): Uint8Array<ArrayBuffer> {
  const chunks: Buffer[] = [];
  const write = (item: TCbor): void => {
    if (typeof item === 'number') {
      if (!Number.isSafeInteger(item)) throw new TypeError(`CBOR: only safe integers are supported, got ${item}`);
      chunks.push(item >= 0 ? cborHead(0, item) : cborHead(1, -1 - item));
    } else if (typeof item === 'string') {
      const bytes = Buffer.from(item, 'utf8');
      chunks.push(cborHead(3, bytes.length), bytes);
    } else if (item instanceof Uint8Array) {
      chunks.push(cborHead(2, item.length), Buffer.from(item));
    } else if (Array.isArray(item)) {
      chunks.push(cborHead(4, item.length));
      item.forEach(write);
    } else {
      chunks.push(cborHead(5, item.size));
      for (const [key, entry] of item) {
        write(key);
        write(entry);
      }
    }
  };
  write(value);
  return new Uint8Array(Buffer.concat(chunks));
}

// ---

const b64u = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;
const COSE_ALG_ES256 = -7;

function assertNonEmptyString(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new TypeError(`${field} must be a non-empty string`);
  }
}

/**
 * Creates an authenticator holding one fresh P-256 credential for `rpId`.
 * @throws {TypeError} for an empty rpId/origin, a bad AAGUID or counter step.
 */
export function createSoftwareAuthenticator(options: TSoftwareAuthenticatorOptions): TSoftwareAuthenticator {
  assertNonEmptyString(options?.rpId, 'rpId');
  assertNonEmptyString(options.origin, 'origin');
  const { rpId, origin, userVerification = true, backupEligible = false, signCountStep = 1 } = options;
  const aaguid = Buffer.from(options.aaguidHex ?? '00'.repeat(16), 'hex');
  if (aaguid.length !== 16) throw new TypeError('aaguidHex must be 16 bytes of hex');
  if (!Number.isSafeInteger(signCountStep) || signCountStep < 0) throw new TypeError('signCountStep must be a non-negative integer');

  const { privateKey, publicKey }: { privateKey: KeyObject; publicKey: KeyObject } = generateKeyPairSync('ec', {
    namedCurve: 'prime256v1',
  });
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x ?? '', 'base64url');
  const y = Buffer.from(jwk.y ?? '', 'base64url');
  const credentialIdBytes = randomBytes(32);
  const credentialId = b64u(credentialIdBytes);
  const publicKeyUncompressed = `04${x.toString('hex')}${y.toString('hex')}`;
  const compressed = `${(y[31]! & 1) === 1 ? '03' : '02'}${x.toString('hex')}`;
  const cosePublicKey = encodeCbor(
    new Map<number, TCbor>([
      [1, 2], // kty: EC2
      [3, COSE_ALG_ES256], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, new Uint8Array(x)],
      [-3, new Uint8Array(y)],
    ]),
  );
  const rpIdHash = sha256(rpId);
  const baseFlags = FLAG_UP | (userVerification ? FLAG_UV : 0) | (backupEligible ? FLAG_BE | FLAG_BS : 0);
  let signCount = 0;

  const counterBytes = (count: number): Buffer => {
    const out = Buffer.alloc(4);
    out.writeUInt32BE(count >>> 0);
    return out;
  };
  const clientData = (type: 'webauthn.create' | 'webauthn.get', challenge: string): Buffer =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  const signEs256 = (authData: Buffer, clientDataJson: Buffer): Buffer =>
    sign('sha256', Buffer.concat([authData, sha256(clientDataJson)]), privateKey);

  const register = (challenge: string, registerOptions: { format?: TSoftwareAttestationFormat } = {}): TSoftwareAttestation => {
    assertNonEmptyString(challenge, 'challenge');
    const format = registerOptions.format ?? 'none';
    if (format !== 'none' && format !== 'packed') throw new TypeError(`unsupported attestation format ${String(format)}`);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialIdBytes.length);
    const authData = Buffer.concat([
      rpIdHash,
      Buffer.from([baseFlags | FLAG_AT]),
      counterBytes(signCount),
      aaguid,
      idLength,
      credentialIdBytes,
      cosePublicKey,
    ]);
    const clientDataJson = clientData('webauthn.create', challenge);
    const attStmt =
      format === 'packed'
        ? new Map<string, TCbor>([
            ['alg', COSE_ALG_ES256],
            ['sig', new Uint8Array(signEs256(authData, clientDataJson))],
          ])
        : new Map<string, TCbor>();
    const attestationObject = encodeCbor(
      new Map<string, TCbor>([
        ['fmt', format],
        ['attStmt', attStmt],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      credentialId,
      clientDataJson: b64u(clientDataJson),
      attestationObject: b64u(attestationObject),
      transports: ['AUTHENTICATOR_TRANSPORT_INTERNAL'],
    };
  };

  const stamp = (body: string): string => {
    if (typeof body !== 'string') throw new TypeError('body must be the request body string');
    signCount += signCountStep;
    const challenge = b64u(Buffer.from(sha256(body).toString('hex'), 'utf8'));
    const authenticatorData = Buffer.concat([rpIdHash, Buffer.from([baseFlags]), counterBytes(signCount)]);
    const clientDataJson = clientData('webauthn.get', challenge);
    return JSON.stringify({
      authenticatorData: b64u(authenticatorData),
      clientDataJson: b64u(clientDataJson),
      credentialId,
      signature: b64u(signEs256(authenticatorData, clientDataJson)),
    });
  };

  return {
    rpId,
    origin,
    credentialId,
    publicKey: compressed,
    publicKeyUncompressed,
    get signCount() {
      return signCount;
    },
    register,
    authenticatorParams: (authenticatorName, registerOptions) => {
      assertNonEmptyString(authenticatorName, 'authenticatorName');
      const challenge = b64u(randomBytes(32));
      return { authenticatorName, challenge, attestation: register(challenge, registerOptions) };
    },
    stamp,
    stamper: {
      stamp: async (payload: string) => ({ stampHeaderName: 'X-Stamp-Webauthn', stampHeaderValue: stamp(payload) }),
    },
  };
}
