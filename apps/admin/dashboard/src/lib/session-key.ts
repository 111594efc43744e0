/**
 * The browser's session key: a P-256 pair generated here with WebCrypto, its private half
 * non-extractable (no script, this one included, can read it out), kept in IndexedDB so a reload
 * stays signed in. `stamp_login` registers its public half as a session key of the user; every
 * tRPC call is then stamped with it (`X-Stamp` over the exact body, as the public API wants).
 */
import type { TStamp } from '../../../src/client/admin-client';
import { compressP256, p1363ToDer, toHex } from './encoding';

const DB = 'latchkey-admin';
const STORE = 'session';

export interface TSession {
  keyPair: CryptoKeyPair;
  publicKey: string;
  organizationId: string;
  userId: string;
  expiresAt: number;
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function tx<T>(mode: IDBTransactionMode, work: (s: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await open();
  return new Promise((resolve, reject) => {
    const req = work(db.transaction(STORE, mode).objectStore(STORE));
    req.onsuccess = () => resolve(req.result as T);
    req.onerror = () => reject(req.error);
  });
}

/** A new non-extractable P-256 pair and its compressed public key (hex). */
export async function newSessionKey(): Promise<{ keyPair: CryptoKeyPair; publicKey: string }> {
  const keyPair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', keyPair.publicKey));
  return { keyPair, publicKey: toHex(compressP256(raw)) };
}

export const saveSession = (s: TSession) => tx<unknown>('readwrite', (st) => st.put(s, 'current'));
export const loadSession = () => tx<TSession | undefined>('readonly', (st) => st.get('current'));
export const clearSession = () => tx<unknown>('readwrite', (st) => st.delete('current'));

const base64Url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const signDerHex = async (keyPair: CryptoKeyPair, body: string) =>
  toHex(p1363ToDer(new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keyPair.privateKey, new TextEncoder().encode(body)))));

/** Stamps with a session key: `X-Stamp` = base64url(JSON {publicKey, scheme, signature(DER hex)}). */
export function sessionStamp(keyPair: CryptoKeyPair, publicKey: string): TStamp {
  return async (body) => {
    const stamp = JSON.stringify({ publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: await signDerHex(keyPair, body) });
    return { stampHeaderName: 'X-Stamp', stampHeaderValue: base64Url(stamp) };
  };
}

/**
 * Stamps with a key an e-mail code vouched for: `X-Stamp-Attested` = base64url(JSON {publicKey,
 * scheme, signature, publicKeyAttestation}), the verification token verify_otp bound to this key.
 * The engine accepts it for stamp_login only, which makes the key a session key.
 */
export function attestedStamp(keyPair: CryptoKeyPair, publicKey: string, verificationToken: string): TStamp {
  return async (body) => {
    const stamp = JSON.stringify({ publicKey, scheme: 'STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN', signature: await signDerHex(keyPair, body), publicKeyAttestation: verificationToken });
    return { stampHeaderName: 'X-Stamp-Attested', stampHeaderValue: base64Url(stamp) };
  };
}
