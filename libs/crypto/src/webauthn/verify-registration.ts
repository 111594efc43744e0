/**
 * Passkey registration: verify the WebAuthn attestation a client sends in `authenticators[]`
 * (`create_authenticators`, `create_users`, `create_sub_organization`, `recover_user`; protocol
 * notes §2) and extract what must be stored to verify its later `X-Stamp-Webauthn` stamps.
 *
 * Turnkey's wire shape is `{challenge, attestation: {credentialId, clientDataJson,
 * attestationObject, transports}}`, all base64url, transports as `AUTHENTICATOR_TRANSPORT_*`.
 * The attestation statement itself (formats `none`, `packed`, `fido-u2f`, `tpm`) is verified by
 * `@simplewebauthn/server`; this module checks the client data and authenticator data itself
 * first, so each refusal carries a precise reason, and converts the COSE key to the stored form.
 * `apple`, `android-key` and `android-safetynet` are refused for now: the library ships trust
 * anchors for them and then checks certificate revocation by fetching CRLs, which is network I/O
 * this pure module must not do. Browsers send `none` unless the relying party asks for
 * attestation, and Turnkey clients do not, so this costs nothing in practice.
 *
 * Stored public key: **compressed SEC1 P-256, hex** (`02…`/`03…`), the same form as Turnkey API
 * keys (so policies and `credentials[].public_key` compare uniformly) and one that
 * `verifyWebauthnStamp` accepts (`Buffer.from(publicKey, 'hex')`). Only ES256 is accepted, since
 * stamps are verified as P-256 only. No attestation trust chain is required: like Turnkey, any
 * authenticator may register.
 */
import { createHash } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { decodeBase64Any, decodeUtf8, encodeBase64Url } from '../encoding.js';
import { WebauthnRegistrationError } from './webauthn-registration-error.js';

/** `v1AuthenticatorTransport`. */
export const AUTHENTICATOR_TRANSPORTS = [
  'AUTHENTICATOR_TRANSPORT_BLE',
  'AUTHENTICATOR_TRANSPORT_INTERNAL',
  'AUTHENTICATOR_TRANSPORT_NFC',
  'AUTHENTICATOR_TRANSPORT_USB',
  'AUTHENTICATOR_TRANSPORT_HYBRID',
] as const;
export type TAuthenticatorTransport = (typeof AUTHENTICATOR_TRANSPORTS)[number];

/** Attestation formats verified here: those `@simplewebauthn/server` checks without network I/O. */
export const ATTESTATION_FORMATS = ['none', 'packed', 'fido-u2f', 'tpm'] as const;

/** `v1Attestation`, as the client sends it. */
export type TWebauthnAttestation = {
  /** base64url of the credential's rawId. */
  credentialId: string;
  /** base64url of clientDataJSON. */
  clientDataJson: string;
  /** base64url of the CBOR attestation object. */
  attestationObject: string;
  transports: string[];
};

export type TVerifyWebauthnRegistrationParams = {
  /** The intent's `challenge`: base64url of the bytes given to `navigator.credentials.create`. */
  challenge: string;
  attestation: TWebauthnAttestation;
  /** When given, clientData `origin` must be one of these (e.g. `https://wallet.example.com`). */
  expectedOrigins?: string[];
  /** When given, the rpIdHash must be SHA-256 of one of these (e.g. `wallet.example.com`). */
  expectedRpIds?: string[];
  /** Require the UV flag. Off by default: Turnkey clients ask for `userVerification: "preferred"`. */
  requireUserVerification?: boolean;
};

export type TVerifiedWebauthnRegistration = {
  /** Canonical base64url (no padding) of the credential id; what stamps name as `credentialId`. */
  credentialId: string;
  /** Compressed SEC1 P-256 public key, hex. */
  publicKey: string;
  /** The authenticator model's AAGUID, UUID form (all zeros for most `none` attestations). */
  aaguid: string;
  /** The attestation format (`fmt`), e.g. `none` or `packed`. */
  attestationType: string;
  /** The counter at registration; later assertions must advance it (unless both are 0). */
  signCount: number;
  transports: TAuthenticatorTransport[];
  /** The clientData origin the registration happened on. */
  origin: string;
  userVerified: boolean;
  /** BE flag: a synced, multi-device passkey. */
  backupEligible: boolean;
};

// COSE (RFC 9053): key type EC2, curve P-256, algorithm ES256.
const COSE_KTY = 1;
const COSE_ALG = 3;
const COSE_EC2_CRV = -1;
const COSE_EC2_X = -2;
const COSE_EC2_Y = -3;
const COSE_KTY_EC2 = 2;
const COSE_CRV_P256 = 1;
const COSE_ALG_ES256 = -7;

const MAX_CLIENT_DATA_JSON_LENGTH = 8192;
const MAX_ATTESTATION_OBJECT_LENGTH = 65536;
// WebAuthn L3 §5.8.3: credential ids are at most 1023 bytes.
const MAX_CREDENTIAL_ID_BYTES = 1023;

function fail(reason: ConstructorParameters<typeof WebauthnRegistrationError>[0], message: string): WebauthnRegistrationError {
  return new WebauthnRegistrationError(reason, message);
}

function base64Field(value: unknown, field: string, maxLength: number): Uint8Array {
  if (typeof value !== 'string' || value.length === 0 || value.length > maxLength) {
    throw fail('MALFORMED', `${field} must be a non-empty base64url string of at most ${maxLength} characters`);
  }
  const bytes = decodeBase64Any(value);
  if (!bytes || bytes.length === 0) {
    throw fail('MALFORMED', `${field} is not base64url`);
  }
  return bytes;
}

function assertStringList(value: unknown, field: string): asserts value is string[] | undefined {
  if (value !== undefined && (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))) {
    throw new TypeError(`${field} must be an array of strings when given`);
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a).equals(b);
}

type TClientData = { challenge: string; origin: string };

function checkClientData(bytes: Uint8Array, challenge: Uint8Array, expectedOrigins: string[] | undefined): TClientData {
  const text = decodeUtf8(bytes);
  let parsed: unknown;
  try {
    parsed = text === undefined ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw fail('MALFORMED', 'attestation.clientDataJson is not base64url of a JSON object');
  }
  const { type, challenge: clientChallenge, origin } = parsed as Record<string, unknown>;
  if (type !== 'webauthn.create') {
    throw fail('TYPE_MISMATCH', `clientData type is ${JSON.stringify(type)}, expected "webauthn.create"`);
  }
  // Compare bytes, so a padded or standard-alphabet spelling of the same challenge still matches.
  const clientChallengeBytes = typeof clientChallenge === 'string' ? decodeBase64Any(clientChallenge) : undefined;
  if (typeof clientChallenge !== 'string' || !clientChallengeBytes || !sameBytes(clientChallengeBytes, challenge)) {
    throw fail('CHALLENGE_MISMATCH', 'clientData challenge does not match the registration challenge');
  }
  if (typeof origin !== 'string' || origin.length === 0) {
    throw fail('MALFORMED', 'clientData origin is missing');
  }
  if (expectedOrigins && !expectedOrigins.includes(origin)) {
    throw fail('ORIGIN_MISMATCH', `clientData origin ${JSON.stringify(origin)} is not an allowed origin`);
  }
  return { challenge: clientChallenge, origin };
}

/**
 * `@simplewebauthn/server`, loaded on the first registration a process verifies: its X.509 and
 * ASN.1 stack took 45–75 ms of every app's start (the auth proxy's too, which never verifies one).
 */
let library: Promise<[typeof import('@simplewebauthn/server'), typeof import('@simplewebauthn/server/helpers')]> | undefined;
const simpleWebauthn = () => (library ??= Promise.all([import('@simplewebauthn/server'), import('@simplewebauthn/server/helpers')]));

/** The COSE key as a compressed SEC1 P-256 point, or a refusal naming what it is instead. */
function p256FromCose(coseKey: Uint8Array, decodeCredentialPublicKey: (typeof import('@simplewebauthn/server/helpers'))['decodeCredentialPublicKey']): string {
  let key: Map<number, unknown>;
  try {
    key = decodeCredentialPublicKey(new Uint8Array(coseKey)) as unknown as Map<number, unknown>;
  } catch {
    throw fail('MALFORMED', 'the credential public key is not a COSE key');
  }
  if (!(key instanceof Map)) {
    throw fail('MALFORMED', 'the credential public key is not a COSE key');
  }
  const kty = key.get(COSE_KTY);
  const alg = key.get(COSE_ALG);
  const crv = key.get(COSE_EC2_CRV);
  if (kty !== COSE_KTY_EC2 || alg !== COSE_ALG_ES256 || crv !== COSE_CRV_P256) {
    throw fail(
      'UNSUPPORTED_ALGORITHM',
      `credential key is kty ${String(kty)} alg ${String(alg)}; only ES256 (kty 2, alg -7, crv P-256) passkeys are supported`,
    );
  }
  const x = key.get(COSE_EC2_X);
  const y = key.get(COSE_EC2_Y);
  if (!(x instanceof Uint8Array) || !(y instanceof Uint8Array) || x.length !== 32 || y.length !== 32) {
    throw fail('MALFORMED', 'the credential key coordinates must be 32-byte byte strings');
  }
  const uncompressed = new Uint8Array(65);
  uncompressed[0] = 0x04;
  uncompressed.set(x, 1);
  uncompressed.set(y, 33);
  try {
    return p256.Point.fromBytes(uncompressed).toHex(true);
  } catch {
    throw fail('MALFORMED', 'the credential key is not a point on P-256');
  }
}

/**
 * Verifies a passkey registration and returns the credential to store.
 *
 * Origin and rp id are checked only when the lists are given; clientData `type` must always be
 * `webauthn.create`, user presence is always required.
 * @throws {WebauthnRegistrationError} with the reason that failed (see
 *   {@link TWebauthnRegistrationErrorReason}).
 * @throws {TypeError} if `params` or its option lists are not of the documented types.
 */
export async function verifyWebauthnRegistration(
  params: TVerifyWebauthnRegistrationParams,
): Promise<TVerifiedWebauthnRegistration> {
  if (typeof params !== 'object' || params === null) {
    throw new TypeError('params must be {challenge, attestation, expectedOrigins?, expectedRpIds?}');
  }
  const { challenge, attestation, expectedOrigins, expectedRpIds, requireUserVerification = false } = params;
  assertStringList(expectedOrigins, 'expectedOrigins');
  assertStringList(expectedRpIds, 'expectedRpIds');
  if (typeof requireUserVerification !== 'boolean') {
    throw new TypeError('requireUserVerification must be a boolean');
  }
  if (typeof attestation !== 'object' || attestation === null) {
    throw fail('MALFORMED', 'attestation must be an object {credentialId, clientDataJson, attestationObject, transports}');
  }

  const challengeBytes = base64Field(challenge, 'challenge', 1024);
  const credentialId = base64Field(attestation.credentialId, 'attestation.credentialId', 2048);
  if (credentialId.length > MAX_CREDENTIAL_ID_BYTES) {
    throw fail('MALFORMED', `attestation.credentialId is longer than ${MAX_CREDENTIAL_ID_BYTES} bytes`);
  }
  const clientDataJson = base64Field(attestation.clientDataJson, 'attestation.clientDataJson', MAX_CLIENT_DATA_JSON_LENGTH);
  const attestationObject = base64Field(attestation.attestationObject, 'attestation.attestationObject', MAX_ATTESTATION_OBJECT_LENGTH);
  const transports = attestation.transports;
  if (!Array.isArray(transports) || !transports.every((t) => (AUTHENTICATOR_TRANSPORTS as readonly unknown[]).includes(t))) {
    throw fail('MALFORMED', `attestation.transports must be an array of ${AUTHENTICATOR_TRANSPORTS.join(', ')}`);
  }

  const clientData = checkClientData(clientDataJson, challengeBytes, expectedOrigins);
  const [{ verifyRegistrationResponse }, { convertAAGUIDToString, decodeAttestationObject, decodeCredentialPublicKey, parseAuthenticatorData }] = await simpleWebauthn();

  let fmt: unknown;
  let authData: unknown;
  try {
    const decoded = decodeAttestationObject(new Uint8Array(attestationObject));
    fmt = decoded.get('fmt');
    authData = decoded.get('authData');
  } catch {
    throw fail('MALFORMED', 'attestation.attestationObject is not a CBOR attestation object');
  }
  if (typeof fmt !== 'string' || !(authData instanceof Uint8Array)) {
    throw fail('MALFORMED', 'the attestation object must carry a text "fmt" and a byte-string "authData"');
  }
  if (!(ATTESTATION_FORMATS as readonly string[]).includes(fmt)) {
    throw fail('UNSUPPORTED_FORMAT', `attestation format ${JSON.stringify(fmt)} is not supported`);
  }
  let parsed: ReturnType<typeof parseAuthenticatorData>;
  try {
    parsed = parseAuthenticatorData(new Uint8Array(authData));
  } catch {
    throw fail('MALFORMED', 'the attestation authenticator data does not parse');
  }
  if (expectedRpIds) {
    const matches = expectedRpIds.some((rpId) => sameBytes(createHash('sha256').update(rpId, 'utf8').digest(), parsed.rpIdHash));
    if (!matches) {
      throw fail('RP_ID_MISMATCH', 'the authenticator data rpIdHash is not that of an allowed rp id');
    }
  }
  if (!parsed.flags.up) {
    throw fail('USER_NOT_PRESENT', 'the authenticator did not assert user presence');
  }
  if (requireUserVerification && !parsed.flags.uv) {
    throw fail('USER_NOT_VERIFIED', 'user verification is required, but the authenticator did not verify the user');
  }
  if (!parsed.flags.at || !parsed.credentialID || !parsed.credentialPublicKey || !parsed.aaguid) {
    throw fail('MALFORMED', 'the authenticator data carries no attested credential');
  }
  if (!sameBytes(parsed.credentialID, credentialId)) {
    throw fail('CREDENTIAL_ID_MISMATCH', 'attestation.credentialId is not the credential id the authenticator attested');
  }
  const publicKey = p256FromCose(parsed.credentialPublicKey, decodeCredentialPublicKey);

  const id = encodeBase64Url(credentialId);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          clientDataJSON: encodeBase64Url(clientDataJson),
          attestationObject: encodeBase64Url(attestationObject),
          transports: [],
        },
        clientExtensionResults: {},
      },
      // Already compared above (as bytes); the library compares strings, so give it the client's.
      expectedChallenge: clientData.challenge,
      expectedOrigin: clientData.origin,
      ...(expectedRpIds ? { expectedRPID: expectedRpIds } : {}),
      expectedType: 'webauthn.create',
      requireUserPresence: true,
      requireUserVerification,
      supportedAlgorithmIDs: [COSE_ALG_ES256],
    });
  } catch (error) {
    throw fail('ATTESTATION_INVALID', `the ${fmt} attestation does not verify: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!verified.verified) {
    throw fail('ATTESTATION_INVALID', `the ${fmt} attestation signature does not verify`);
  }
  return {
    credentialId: id,
    publicKey,
    aaguid: convertAAGUIDToString(parsed.aaguid),
    attestationType: fmt,
    signCount: parsed.counter,
    transports: transports as TAuthenticatorTransport[],
    origin: clientData.origin,
    userVerified: parsed.flags.uv,
    backupEligible: parsed.flags.be,
  };
}

