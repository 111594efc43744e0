/**
 * BIP32 derivation paths (`PATH_FORMAT_BIP32`): `m/44'/60'/0'/0/0`, hardened segments written
 * with `'` or `h`. Parsed once into child indexes; malformed paths are refused here, before any
 * key is touched.
 */

export const HARDENED_OFFSET = 0x8000_0000;

export class DerivationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DerivationError';
  }
}

export interface TParsedPath {
  /** Child indexes, hardened ones offset by 2^31. */
  indexes: number[];
  /** Canonical text (`'` for hardened). */
  canonical: string;
}

/**
 * Parses a BIP32 path.
 * @throws DerivationError naming the bad segment.
 */
export function parseDerivationPath(path: string): TParsedPath {
  if (typeof path !== 'string' || path.length === 0 || path.length > 256) throw new DerivationError('path must be a non-empty string of at most 256 characters');
  const parts = path.split('/');
  if (parts[0] !== 'm') throw new DerivationError(`path must start with "m/": ${JSON.stringify(path)}`);
  const indexes: number[] = [];
  const canonical = ['m'];
  for (const seg of parts.slice(1)) {
    const m = /^(\d{1,10})(['hH]?)$/.exec(seg);
    if (!m) throw new DerivationError(`invalid path segment ${JSON.stringify(seg)} in ${JSON.stringify(path)}`);
    const n = Number(m[1]);
    if (n >= HARDENED_OFFSET) throw new DerivationError(`path segment ${seg} is out of range (max ${HARDENED_OFFSET - 1})`);
    const hardened = m[2] !== '';
    indexes.push(hardened ? n + HARDENED_OFFSET : n);
    canonical.push(hardened ? `${n}'` : String(n));
  }
  if (indexes.length > 255) throw new DerivationError('path is deeper than 255 levels');
  return { indexes, canonical: canonical.join('/') };
}
