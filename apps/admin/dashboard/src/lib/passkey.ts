/**
 * Passkeys through the browser's WebAuthn API: registration in Turnkey's attestation shape, and
 * `X-Stamp-Webauthn` stamps whose challenge is the hex SHA-256 of the body (protocol notes §2).
 * The relying party is this page's host; browsers refuse IP addresses as RP ids, so the
 * dashboard moves from 127.0.0.1 to localhost before anything else (main.tsx).
 */
import type { TStamp } from '../../../src/client/admin-client';
import { sha256Hex, toBase64Url } from './encoding';

const TRANSPORTS: Record<string, string> = {
  usb: 'AUTHENTICATOR_TRANSPORT_USB',
  nfc: 'AUTHENTICATOR_TRANSPORT_NFC',
  ble: 'AUTHENTICATOR_TRANSPORT_BLE',
  internal: 'AUTHENTICATOR_TRANSPORT_INTERNAL',
  hybrid: 'AUTHENTICATOR_TRANSPORT_HYBRID',
};

export async function registerPasskey(o: { userId: string; userName: string; authenticatorName: string }) {
  const challengeBytes = crypto.getRandomValues(new Uint8Array(32));
  const cred = (await navigator.credentials.create({
    publicKey: {
      challenge: challengeBytes,
      rp: { name: 'Latchkey', id: location.hostname },
      user: { id: new TextEncoder().encode(o.userId), name: o.userName, displayName: o.userName },
      pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      attestation: 'none',
    },
  })) as PublicKeyCredential | null;
  if (!cred) throw new Error('no passkey was created');
  const res = cred.response as AuthenticatorAttestationResponse;
  return {
    authenticatorName: o.authenticatorName,
    challenge: toBase64Url(challengeBytes),
    attestation: {
      credentialId: toBase64Url(cred.rawId),
      clientDataJson: toBase64Url(res.clientDataJSON),
      attestationObject: toBase64Url(res.attestationObject),
      transports: (res.getTransports?.() ?? []).map((t) => TRANSPORTS[t]).filter((t): t is string => Boolean(t)) as never[],
    },
  };
}

export const passkeyStamp: TStamp = async (body) => {
  const challenge = new TextEncoder().encode(await sha256Hex(body));
  const cred = (await navigator.credentials.get({ publicKey: { challenge, rpId: location.hostname, userVerification: 'preferred' } })) as PublicKeyCredential | null;
  if (!cred) throw new Error('no passkey was used');
  const res = cred.response as AuthenticatorAssertionResponse;
  const header = {
    authenticatorData: toBase64Url(res.authenticatorData),
    clientDataJson: toBase64Url(res.clientDataJSON),
    credentialId: toBase64Url(cred.rawId),
    signature: toBase64Url(res.signature),
  };
  return { stampHeaderName: 'X-Stamp-Webauthn', stampHeaderValue: JSON.stringify(header) };
};
