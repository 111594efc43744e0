/**
 * HD derivation from a wallet's mnemonic. secp256k1 follows BIP32 (`@scure/bip32`). Parent
 * nodes are cached per seed while one batch of accounts is derived, since deriving the full path
 * from the root costs ~5× a single child step.
 */
import { HDKey } from '@scure/bip32';
import { generateMnemonic, mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { DerivationError, parseDerivationPath } from './derivation-path.js';

export type TCurveName = 'CURVE_SECP256K1' | 'CURVE_ED25519' | 'CURVE_P256';

export const MNEMONIC_LENGTHS = [12, 15, 18, 21, 24] as const;

/** A fresh BIP39 English mnemonic of 12–24 words. */
export function createMnemonic(words: number = 12): string {
  if (!(MNEMONIC_LENGTHS as readonly number[]).includes(words)) throw new DerivationError(`mnemonic length must be one of ${MNEMONIC_LENGTHS.join(', ')}`);
  return generateMnemonic(wordlist, (words / 3) * 32);
}

export function isValidMnemonic(mnemonic: string): boolean {
  return validateMnemonic(mnemonic, wordlist);
}

export interface TDerivedKey {
  curve: TCurveName;
  path: string;
  /** 32-byte private scalar. A secret: never log it, zero it when done if you can. */
  privateKey: Uint8Array;
  /** Compressed SEC1 public key (33 bytes) for ECDSA curves. */
  publicKey: Uint8Array;
}

/** Derives keys of one seed, caching intermediate nodes between calls. */
export class SeedDeriver {
  private readonly root: HDKey;
  private readonly cache = new Map<string, HDKey>();

  private constructor(seed: Uint8Array) {
    this.root = HDKey.fromMasterSeed(seed);
  }

  /** @throws DerivationError for an invalid mnemonic. */
  static fromMnemonic(mnemonic: string): SeedDeriver {
    if (!isValidMnemonic(mnemonic)) throw new DerivationError('invalid mnemonic');
    return new SeedDeriver(mnemonicToSeedSync(mnemonic));
  }

  /** From a raw BIP32 seed (16–64 bytes); used by the published test vectors. */
  static fromSeed(seed: Uint8Array): SeedDeriver {
    return new SeedDeriver(seed);
  }

  /**
   * @throws DerivationError for a malformed path or an unsupported curve.
   */
  derive(curve: TCurveName, path: string): TDerivedKey {
    const { indexes, canonical } = parseDerivationPath(path);
    switch (curve) {
      case 'CURVE_SECP256K1': {
        let node = this.root;
        let prefix = 'm';
        for (const [i, idx] of indexes.entries()) {
          prefix += `/${idx}`;
          const cached = this.cache.get(prefix);
          if (cached) {
            node = cached;
            continue;
          }
          node = node.deriveChild(idx);
          // Cache every node but the leaf: siblings share the parent.
          if (i < indexes.length - 1) this.cache.set(prefix, node);
        }
        if (!node.privateKey || !node.publicKey) throw new DerivationError(`derivation failed for ${canonical}`);
        return { curve, path: canonical, privateKey: node.privateKey, publicKey: node.publicKey };
      }
      case 'CURVE_ED25519':
      case 'CURVE_P256':
        throw new DerivationError(`${curve} derivation is not available yet; use CURVE_SECP256K1`);
    }
  }
}
