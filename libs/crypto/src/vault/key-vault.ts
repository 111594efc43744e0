/**
 * The key vault: the single point where key material is encrypted before it reaches storage (the
 * "barrier", after HashiCorp Vault). Persistence only ever sees sealed strings.
 *
 * AES-256-GCM with a random 96-bit IV per seal. Each seal is bound to an `aad` string naming its
 * purpose and record (e.g. `wallet-seed:<walletId>`), so a sealed value copied onto another record
 * fails to open. The sealed form `v1.<keyId>.<iv>.<ciphertext||tag>` carries the master key's id, so
 * opening with the wrong master key says so instead of reporting tampering.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { VaultError } from '../errors.js';
import { assertBytes, assertString, decodeBase64Any, decodeHex, encodeBase64Url } from '../encoding.js';

const VERSION = 'v1';
const MASTER_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID_DOMAIN = Buffer.from('latchkey-key-id', 'utf8');

/** Encrypts and decrypts key material under one master key. */
export type TKeyVault = {
  /**
   * Encrypts `plaintext`, bound to `aad`.
   * @throws {TypeError} if `plaintext` is not bytes or `aad` is empty.
   */
  seal(plaintext: Uint8Array, aad: string): string;
  /**
   * Decrypts a value produced by `seal` with the same master key and `aad`.
   * @throws {VaultError} `SEALED_MALFORMED`, `KEY_MISMATCH` or `AUTHENTICATION_FAILED`.
   */
  open(sealed: string, aad: string): Uint8Array;
  /** First 8 hex chars of sha256("latchkey-key-id" || masterKey): names the key, reveals nothing. */
  readonly keyId: string;
};

/** Id of a master key, as written into every sealed value. */
function masterKeyId(masterKey: Uint8Array): string {
  return createHash('sha256').update(KEY_ID_DOMAIN).update(masterKey).digest('hex').slice(0, 8);
}

function assertAad(aad: unknown): asserts aad is string {
  assertString(aad, 'aad');
  if (aad.length === 0) {
    // An empty binding would let sealed values move freely between records.
    throw new TypeError('aad must be a non-empty purpose/record binding, e.g. "wallet-seed:<walletId>"');
  }
}

/**
 * The bytes GCM authenticates besides the ciphertext: the version and key id as well as the
 * caller's binding, so no part of the sealed header can be swapped either.
 */
function additionalData(keyId: string, aad: string): Buffer {
  return Buffer.from(`${VERSION}.${keyId}.${aad}`, 'utf8');
}

/**
 * Creates a key vault over a 32-byte master key (copied; the caller may wipe its buffer).
 * @throws {VaultError} `MASTER_KEY_INVALID` if `masterKey` is not 32 bytes.
 */
export function createKeyVault(masterKey: Uint8Array): TKeyVault {
  if (!(masterKey instanceof Uint8Array) || masterKey.length !== MASTER_KEY_BYTES) {
    throw new VaultError('MASTER_KEY_INVALID', `master key must be ${MASTER_KEY_BYTES} bytes`);
  }
  const key = Buffer.from(masterKey);
  const keyId = masterKeyId(key);

  function seal(plaintext: Uint8Array, aad: string): string {
    assertBytes(plaintext, 'plaintext');
    assertAad(aad);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(keyId, aad));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${keyId}.${encodeBase64Url(iv)}.${encodeBase64Url(ciphertext)}`;
  }

  function open(sealed: string, aad: string): Uint8Array {
    assertAad(aad);
    if (typeof sealed !== 'string') {
      throw new VaultError('SEALED_MALFORMED', 'sealed value must be a string');
    }
    const parts = sealed.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION) {
      throw new VaultError(
        'SEALED_MALFORMED',
        `sealed value is not in the ${VERSION}.<keyId>.<iv>.<ciphertext> format`,
      );
    }
    const [, sealedKeyId, ivText, ciphertextText] = parts as [string, string, string, string];
    if (sealedKeyId !== keyId) {
      throw new VaultError(
        'KEY_MISMATCH',
        `value was sealed with master key ${JSON.stringify(sealedKeyId.slice(0, 16))} but the configured master key is ${keyId}: wrong master key?`,
      );
    }
    const iv = decodeBase64Any(ivText);
    const ciphertext = decodeBase64Any(ciphertextText);
    if (!iv || iv.length !== IV_BYTES || !ciphertext || ciphertext.length < TAG_BYTES) {
      throw new VaultError('SEALED_MALFORMED', 'sealed value has a malformed iv or ciphertext');
    }
    const body = ciphertext.subarray(0, ciphertext.length - TAG_BYTES);
    const tag = ciphertext.subarray(ciphertext.length - TAG_BYTES);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(keyId, aad));
      decipher.setAuthTag(tag);
      const plaintext = Buffer.concat([decipher.update(body), decipher.final()]);
      return new Uint8Array(plaintext.buffer, plaintext.byteOffset, plaintext.byteLength);
    } catch {
      // The aad is the caller's own record binding, not secret, so naming it helps debugging.
      throw new VaultError(
        'AUTHENTICATION_FAILED',
        `sealed value failed authentication for aad ${JSON.stringify(aad)}: it belongs to another record or was altered`,
      );
    }
  }

  return { seal, open, keyId };
}

/** A fresh random 32-byte master key from the CSPRNG. */
export function generateMasterKey(): Uint8Array {
  return new Uint8Array(randomBytes(MASTER_KEY_BYTES));
}

/**
 * Parses a master key from configuration text: 64 hex characters, or base64 / base64url (padding
 * optional) of 32 bytes. Surrounding whitespace is ignored.
 * @throws {VaultError} `MASTER_KEY_INVALID` otherwise; the message gives only the length, never the text.
 */
export function parseMasterKey(text: string): Uint8Array {
  if (typeof text !== 'string') {
    throw new VaultError('MASTER_KEY_INVALID', 'master key must be given as text');
  }
  const trimmed = text.trim();
  // Hex first: 64 hex characters are also valid base64 (of 48 bytes).
  if (trimmed.length === MASTER_KEY_BYTES * 2) {
    const hex = decodeHex(trimmed);
    if (hex) return hex;
  }
  const decoded = decodeBase64Any(trimmed);
  if (decoded && decoded.length === MASTER_KEY_BYTES) return decoded;
  throw new VaultError(
    'MASTER_KEY_INVALID',
    `master key must be 64 hex characters or base64/base64url of 32 bytes (got ${trimmed.length} characters)`,
  );
}

function isErrnoError(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

const REREAD_ATTEMPTS = 20;
const REREAD_DELAY_MS = 25;

async function readMasterKeyFile(path: string): Promise<Uint8Array> {
  const text = await readFile(path, 'utf8');
  try {
    return parseMasterKey(text);
  } catch (error) {
    if (error instanceof VaultError) {
      throw new VaultError('MASTER_KEY_INVALID', `master key file ${path}: ${error.message}`);
    }
    throw error;
  }
}

/**
 * Reads the master key from `path` (hex), or on first start creates it: parent directories with
 * mode 0755 (other system users may need to traverse the data directory), the file itself with mode
 * 0600 and exclusive create, so two processes starting together end up with the same key.
 * @throws {VaultError} `MASTER_KEY_INVALID` if the file exists but does not hold a valid key.
 * @throws {Error} on file-system errors other than the file not existing.
 */
export async function loadOrCreateMasterKeyFile(path: string): Promise<Uint8Array> {
  try {
    return await readMasterKeyFile(path);
  } catch (error) {
    if (!isErrnoError(error, 'ENOENT')) throw error;
  }
  await mkdir(dirname(path), { recursive: true, mode: 0o755 });
  const masterKey = generateMasterKey();
  try {
    await writeFile(path, `${Buffer.from(masterKey).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    return masterKey;
  } catch (error) {
    if (!isErrnoError(error, 'EEXIST')) throw error;
  }
  // Another process won the race. Its write may still be in flight (the file exists but is empty
  // or partial), so retry briefly before declaring the content invalid.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await readMasterKeyFile(path);
    } catch (error) {
      if (!(error instanceof VaultError) || attempt >= REREAD_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, REREAD_DELAY_MS));
    }
  }
}
