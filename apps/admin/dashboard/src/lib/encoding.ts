/** Byte encodings the stamps use: hex, base64url, and ECDSA's P1363 (WebCrypto) to DER (Turnkey stamps). */
export const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

export function toBase64Url(b: ArrayBuffer | Uint8Array): string {
  const bytes = b instanceof Uint8Array ? b : new Uint8Array(b);
  let s = '';
  for (const x of bytes) s += String.fromCharCode(x);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** DER INTEGER of a big-endian unsigned value (leading zeros dropped, a 0x00 added before a high bit). */
function derInteger(v: Uint8Array): number[] {
  let i = 0;
  while (i < v.length - 1 && v[i] === 0) i++;
  const body = Array.from(v.slice(i));
  if (body[0]! & 0x80) body.unshift(0);
  return [0x02, body.length, ...body];
}

/** WebCrypto's r‖s (32 + 32 bytes) as the DER SEQUENCE Turnkey API-key stamps carry. */
export function p1363ToDer(sig: Uint8Array): Uint8Array {
  const r = derInteger(sig.slice(0, 32));
  const s = derInteger(sig.slice(32, 64));
  return new Uint8Array([0x30, r.length + s.length, ...r, ...s]);
}

/** Compressed SEC1 form (02/03 ‖ x) of an uncompressed P-256 point (04 ‖ x ‖ y). */
export function compressP256(raw: Uint8Array): Uint8Array {
  const x = raw.slice(1, 33);
  const yOdd = raw[64]! & 1;
  return new Uint8Array([yOdd ? 0x03 : 0x02, ...x]);
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));
}
