/**
 * Requests between Latchkey's own processes, authenticated by the key vault: the caller seals
 * `sha256(body) timestampMs` under a fixed AAD with the installation's master key, and the
 * receiver opens it. AES-GCM's tag makes that a MAC under a key both already hold, so the auth
 * proxy can ask the public API for its config without a new shared secret to configure, and
 * nobody without the master key can forge or alter such a request.
 */
import { VaultError } from '../errors.js';
import { sha256Hex } from '../hash.js';
import type { TKeyVault } from './key-vault.js';

/** Header value for `body` at `nowMs`, sealed under `aad`. */
export function sealInternalRequest(vault: TKeyVault, aad: string, body: Uint8Array, nowMs: number): string {
  return vault.seal(Buffer.from(`${sha256Hex(body)} ${nowMs}`, 'utf8'), aad);
}

/**
 * Checks a header made by `sealInternalRequest`: sealed by this master key under `aad`, over this
 * very body, and at most `windowMs` from `nowMs` either way.
 * @returns the reason it is refused, or undefined when it holds
 */
export function internalRequestProblem(vault: TKeyVault, aad: string, header: string | undefined, body: Uint8Array, nowMs: number, windowMs: number): string | undefined {
  if (!header) return 'missing';
  let text: string;
  try {
    text = Buffer.from(vault.open(header, aad)).toString('utf8');
  } catch (e) {
    if (e instanceof VaultError) return 'not sealed by this installation';
    throw e;
  }
  const [digest, ts] = text.split(' ');
  if (digest !== sha256Hex(body)) return 'sealed over another body';
  const at = Number(ts);
  if (!Number.isSafeInteger(at) || Math.abs(nowMs - at) > windowMs) return 'outside the time window';
  return undefined;
}
