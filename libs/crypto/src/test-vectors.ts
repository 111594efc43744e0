/**
 * Fixed vectors shared by the specs (test-only; not exported from the package index).
 * The P-256 vector is the worked example of the protocol notes §1, produced by
 * `@turnkey/api-key-stamper` (purejs runtime) with a private key of 32 bytes of 0x01.
 */
import { expect } from 'vitest';
import { BundleError, type TBundleErrorReason } from './bundles/bundle-error.js';
import { StampError } from './errors.js';
import { SigningError } from './signing/signing-error.js';
export const VECTOR_BODY =
  '{"organizationId":"org-123","type":"ACTIVITY_TYPE_CREATE_WALLET","timestampMs":"1700000000000","parameters":{"walletName":"w","accounts":[]}}';

export const P256_VECTOR = {
  privateKey: '01'.repeat(32),
  publicKey: '026ff03b949241ce1dadd43519e6960e0a85b41a69a05c328103aa2bce1594ca16',
  signature:
    '30440220661e5afa7154168a27942d8abc2e68429cce0f2da74d6f7a9a78580ad814b8c4022011e15bb6665973bafc1f5a3e9d699ac295c9b2625ad95201adb957aea045dab1',
  header:
    'eyJwdWJsaWNLZXkiOiIwMjZmZjAzYjk0OTI0MWNlMWRhZGQ0MzUxOWU2OTYwZTBhODViNDFhNjlhMDVjMzI4MTAzYWEyYmNlMTU5NGNhMTYiLCJzY2hlbWUiOiJTSUdOQVRVUkVfU0NIRU1FX1RLX0FQSV9QMjU2Iiwic2lnbmF0dXJlIjoiMzA0NDAyMjA2NjFlNWFmYTcxNTQxNjhhMjc5NDJkOGFiYzJlNjg0MjljY2UwZjJkYTc0ZDZmN2E5YTc4NTgwYWQ4MTRiOGM0MDIyMDExZTE1YmI2NjY1OTczYmFmYzFmNWEzZTlkNjk5YWMyOTVjOWIyNjI1YWQ5NTIwMWFkYjk1N2FlYTA0NWRhYjEifQ',
} as const;

/** Body bytes as a server receives them. */
export const vectorBodyBytes = (): Uint8Array => new TextEncoder().encode(VECTOR_BODY);

/** Encodes a stamp object the way the api-key-stamper does: base64url, no padding. */
export function encodeStampHeader(stamp: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(stamp), 'utf8').toString('base64url');
}

/** The StampError `fn` throws (fails the test when it throws nothing or something else). */
export function stampErrorOf(fn: () => unknown): StampError {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof StampError)) throw new Error(`expected a StampError, got ${String(error)}`);
    return error;
  }
  throw new Error('expected a StampError, but nothing was thrown');
}

/** The reason of the StampError `fn` throws. */
export const stampReasonOf = (fn: () => unknown): string => stampErrorOf(fn).reason;

/** The SigningError reason `fn` throws, or undefined when it throws nothing; other errors propagate. */
export function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof SigningError) return error.reason;
    throw error;
  }
  return undefined;
}

/** Expects `fn` (sync or async) to fail with a BundleError of `reason`, and returns it. */
export async function expectBundleError(fn: () => unknown, reason: TBundleErrorReason): Promise<BundleError> {
  const error = await (async () => fn())().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BundleError);
  expect((error as BundleError).reason).toBe(reason);
  return error as BundleError;
}
