/**
 * The admin console's one-time setup link (`http://<host>:<adminPort>/#setup=<token>`): the
 * launcher issues one when it has just created `bootstrap.json`, `latchkey admin link` issues a
 * new one. Whoever holds it may register one passkey or API key for the bootstrap root user in the
 * dashboard, once, within 15 minutes. Only the token's SHA-256 is kept, in
 * `$LATCHKEY_DATA_DIR/admin-setup.json` (0600, beside bootstrap.json, whose key it stands in for);
 * a new link replaces the previous one. Spending it is an atomic rename, so two tabs racing with
 * the same link cannot both use it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, rename, rm, writeFile, chmod } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AppError } from '@latchkey/domain';

export const ADMIN_SETUP_TTL_MS = 15 * 60_000;
const FILE = 'admin-setup.json';

interface TSetupRecord {
  tokenSha256: string;
  expiresAt: string;
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Issues a new setup token (replacing any earlier one); returns it and when it expires. */
export async function issueAdminSetupToken(dataDir: string, now = Date.now()): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now + ADMIN_SETUP_TTL_MS);
  const path = join(resolve(dataDir), FILE);
  const record: TSetupRecord = { tokenSha256: sha256(token).toString('hex'), expiresAt: expiresAt.toISOString() };
  await writeFile(path, JSON.stringify(record) + '\n', { mode: 0o600 });
  await chmod(path, 0o600);
  return { token, expiresAt };
}

/** The URL an operator opens: the token rides in the fragment, which browsers never send. */
export const adminSetupUrl = (host: string, port: number, token: string): string => `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}/#setup=${token}`;

const refused = (why: string) => new AppError('UNAUTHENTICATED', `setup link refused: ${why}; print a new one with \`npm run latchkey -- admin link\``);

async function readRecord(path: string): Promise<TSetupRecord | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as TSetupRecord;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

function check(record: TSetupRecord | undefined, token: string, now: number): void {
  if (!record) throw refused('no setup link is outstanding (it was used, or none was issued)');
  const expected = Buffer.from(record.tokenSha256, 'hex');
  const given = sha256(token);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw refused('the token is not the outstanding one');
  if (Date.parse(record.expiresAt) <= now) throw refused(`it expired at ${record.expiresAt}`);
}

/**
 * Checks a token without spending it.
 * @throws AppError UNAUTHENTICATED when it is unknown, replaced, used or expired
 */
export async function checkAdminSetupToken(dataDir: string, token: string, now = Date.now()): Promise<{ expiresAt: Date }> {
  const record = await readRecord(join(resolve(dataDir), FILE));
  check(record, token, now);
  return { expiresAt: new Date(record!.expiresAt) };
}

/**
 * Spends a token: afterwards no one can use it again.
 * @throws AppError UNAUTHENTICATED when it is unknown, replaced, used, expired, or spent concurrently
 */
export async function spendAdminSetupToken(dataDir: string, token: string, now = Date.now()): Promise<void> {
  const path = join(resolve(dataDir), FILE);
  check(await readRecord(path), token, now);
  const claimed = `${path}.${randomBytes(6).toString('hex')}.spent`;
  try {
    await rename(path, claimed);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw refused('it was used a moment ago');
    throw e;
  }
  try {
    // A new link issued between the check and the rename is what was moved: check it again.
    check(await readRecord(claimed), token, now);
  } finally {
    await rm(claimed, { force: true });
  }
}
