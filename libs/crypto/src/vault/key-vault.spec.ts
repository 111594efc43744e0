/** Tests for the key vault (barrier) and master-key loading. */
import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { VaultError } from '../errors.js';
import {
  createKeyVault,
  generateMasterKey,
  loadOrCreateMasterKeyFile,
  parseMasterKey,
} from './key-vault.js';

const MASTER_KEY = new Uint8Array(32).fill(7);
const AAD = 'wallet-seed:wal_123';
const SECRET = new TextEncoder().encode('abandon abandon abandon ... about');

function vaultErrorOf(fn: () => unknown): VaultError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(VaultError);
    return error as VaultError;
  }
  throw new Error('expected a VaultError');
}

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'latchkey-vault-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('createKeyVault', () => {
  const vault = createKeyVault(MASTER_KEY);

  it('round-trips, including empty plaintexts', () => {
    expect(vault.open(vault.seal(SECRET, AAD), AAD)).toEqual(SECRET);
    expect(vault.open(vault.seal(new Uint8Array(0), AAD), AAD)).toEqual(new Uint8Array(0));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), fc.string({ minLength: 1 }), (plaintext, aad) => {
        expect(vault.open(vault.seal(plaintext, aad), aad)).toEqual(plaintext);
      }),
      { numRuns: 200 },
    );
  });

  it('writes v1.<keyId>.<iv>.<ciphertext||tag> with a stable key id', () => {
    const sealed = vault.seal(SECRET, AAD);
    const [version, keyId, iv, ciphertext] = sealed.split('.');
    expect(version).toBe('v1');
    expect(keyId).toBe(vault.keyId);
    expect(vault.keyId).toMatch(/^[0-9a-f]{8}$/);
    expect(createKeyVault(new Uint8Array(MASTER_KEY)).keyId).toBe(vault.keyId);
    expect(Buffer.from(iv!, 'base64url')).toHaveLength(12);
    expect(Buffer.from(ciphertext!, 'base64url')).toHaveLength(SECRET.length + 16);
    expect(sealed).not.toMatch(/[=+/]/);
  });

  it('gives different sealed values for the same plaintext (random IV)', () => {
    expect(vault.seal(SECRET, AAD)).not.toBe(vault.seal(SECRET, AAD));
  });

  it('fails to open under another aad (no moving ciphertext between records)', () => {
    const error = vaultErrorOf(() => vault.open(vault.seal(SECRET, AAD), 'wallet-seed:wal_456'));
    expect(error.reason).toBe('AUTHENTICATION_FAILED');
    expect(error.message).not.toContain(Buffer.from(SECRET).toString());
  });

  it('recognises a wrong master key by its key id', () => {
    const other = createKeyVault(new Uint8Array(32).fill(8));
    const error = vaultErrorOf(() => other.open(vault.seal(SECRET, AAD), AAD));
    expect(error.reason).toBe('KEY_MISMATCH');
    expect(error.message).toContain(vault.keyId);
    expect(error.message).toContain(other.keyId);
    expect(error.message).toMatch(/wrong master key/);
  });

  it('detects tampering with any part of the sealed value', () => {
    const sealed = vault.seal(SECRET, AAD);
    const [version, keyId, iv, ciphertext] = sealed.split('.') as [string, string, string, string];
    const flip = (b64: string, index: number) => {
      const bytes = Buffer.from(b64, 'base64url');
      bytes[index] = bytes[index]! ^ 0x01;
      return bytes.toString('base64url');
    };
    const tampered = [
      [version, keyId, iv, flip(ciphertext, 0)], // ciphertext body
      [version, keyId, iv, flip(ciphertext, SECRET.length + 3)], // tag
      [version, keyId, flip(iv, 5), ciphertext],
    ].map((parts) => parts.join('.'));
    for (const value of tampered) {
      expect(vaultErrorOf(() => vault.open(value, AAD)).reason).toBe('AUTHENTICATION_FAILED');
    }
    const malformed = [
      '',
      'v2.' + sealed.slice(3),
      [version, keyId, iv].join('.'),
      [version, keyId, 'AAAA', ciphertext].join('.'),
      [version, keyId, iv, 'AAAA'].join('.'),
      [version, keyId, iv, `${ciphertext}!`].join('.'),
    ];
    for (const value of malformed) {
      expect(vaultErrorOf(() => vault.open(value, AAD)).reason).toBe('SEALED_MALFORMED');
    }
  });

  it('asserts its inputs', () => {
    expect(() => vault.seal(SECRET, '')).toThrow(TypeError);
    expect(() => vault.seal('text' as unknown as Uint8Array, AAD)).toThrow(TypeError);
    expect(vaultErrorOf(() => createKeyVault(new Uint8Array(16))).reason).toBe('MASTER_KEY_INVALID');
  });

  it('is not affected by later changes to the caller’s key buffer', () => {
    const key = new Uint8Array(MASTER_KEY);
    const v = createKeyVault(key);
    const sealed = v.seal(SECRET, AAD);
    key.fill(0);
    expect(v.open(sealed, AAD)).toEqual(SECRET);
  });
});

describe('parseMasterKey', () => {
  const key = generateMasterKey();
  const hex = Buffer.from(key).toString('hex');

  it('accepts hex (either case), base64 and base64url, padded or not', () => {
    expect(key).toHaveLength(32);
    for (const text of [
      hex,
      hex.toUpperCase(),
      ` ${hex}\n`,
      Buffer.from(key).toString('base64'),
      Buffer.from(key).toString('base64').replace(/=+$/, ''),
      Buffer.from(key).toString('base64url'),
    ]) {
      expect(parseMasterKey(text)).toEqual(key);
    }
  });

  it('rejects other lengths and junk without echoing the text', () => {
    for (const text of ['', hex.slice(2), `${hex}00`, 'z'.repeat(64), Buffer.alloc(31).toString('base64')]) {
      const error = vaultErrorOf(() => parseMasterKey(text));
      expect(error.reason).toBe('MASTER_KEY_INVALID');
      expect(error.message).toMatch(/64 hex characters or base64/);
      if (text.length > 8) expect(error.message).not.toContain(text);
    }
  });
});

describe('loadOrCreateMasterKeyFile', () => {
  it('creates the key file (0600) and its directory (0755) once, then re-reads the same key', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'data', 'nested', 'master.key');
      const created = await loadOrCreateMasterKeyFile(path);
      expect(created).toHaveLength(32);
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      // The process umask may narrow 0755; the code itself never asks for less.
      expect((await stat(join(dir, 'data', 'nested'))).mode & 0o777).toBe(0o755 & ~process.umask());
      expect((await readFile(path, 'utf8')).trim()).toBe(Buffer.from(created).toString('hex'));
      expect(await loadOrCreateMasterKeyFile(path)).toEqual(created);
    });
  });

  it('agrees on one key when several callers race to create it', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'master.key');
      const keys = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateMasterKeyFile(path)));
      for (const key of keys) expect(key).toEqual(keys[0]);
    });
  });

  it('refuses a file that does not hold a key, naming the file', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'master.key');
      await writeFile(path, 'not a key', { mode: 0o600 });
      await expect(loadOrCreateMasterKeyFile(path)).rejects.toThrow(/master\.key/);
      await expect(loadOrCreateMasterKeyFile(path)).rejects.toBeInstanceOf(VaultError);
    });
  });
});
