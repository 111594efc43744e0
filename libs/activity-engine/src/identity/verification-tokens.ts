/**
 * Verification tokens (protocol notes §8): the ES256 JWT verify_otp returns, signed by the
 * server's OTP key, proving that the holder of `public_key` received the code sent to `contact`.
 * A token allows one login (otp_login, or an attested stamp_login) and one sign-up
 * (create_sub_organization), each signed by the token's key (`clientSignature`, or the stamp).
 */
import {
  ClientSignatureError,
  LoginTokenError,
  parseTokenUsageMessage,
  signVerificationToken,
  verifyClientSignature,
  verifyVerificationToken,
  type TVerificationTokenClaims,
} from '@latchkey/crypto';
import { AppError, type TClientSignature } from '@latchkey/domain';
import type { TActivityContext } from '../engine/activity-definition.js';
import { withServerKey } from '../keys/server-keys.js';

export async function issueVerificationToken(ctx: TActivityContext, claims: TVerificationTokenClaims): Promise<string> {
  return withServerKey(ctx.tx, ctx.vault, 'otp_verifier', (key) => signVerificationToken(claims, Buffer.from(key.privateKey).toString('hex')));
}

/**
 * Checks the token's signature and expiry, and that it was issued in this organization or its
 * parent (a backend verifies at the parent, then logs the user in to the sub-organization).
 * @throws AppError 400 saying what is wrong with the token
 */
export async function checkVerificationToken(ctx: TActivityContext, jwt: string): Promise<TVerificationTokenClaims> {
  const keys = await ctx.tx.system.serverKeys();
  const key = keys.find((k) => k.purpose === 'otp_verifier');
  if (!key) throw new Error('the server key otp_verifier is missing; run `latchkey migrate`');
  let claims: TVerificationTokenClaims;
  try {
    claims = verifyVerificationToken(jwt, key.publicKey, ctx.now.getTime());
  } catch (e) {
    if (e instanceof LoginTokenError) throw new AppError('BAD_REQUEST', `verificationToken: ${e.message}`, { field: 'verificationToken', reason: e.reason });
    throw e;
  }
  const org = await ctx.tx.organizations.findById(ctx.organizationId);
  if (claims.organizationId !== ctx.organizationId && claims.organizationId !== org?.parentOrganizationId) {
    throw new AppError('BAD_REQUEST', `verificationToken: issued for organization ${claims.organizationId}, not this one or its parent`, { field: 'verificationToken' });
  }
  return claims;
}

/**
 * The key a use of a token is recorded under. A token allows one sign-up **and** one login (each
 * signed by the token's key): @turnkey/core sends the same token to `signup_v2` and then to the
 * attested `stamp_login` that opens the new user's session (notes §A4), so a sign-up must not use
 * up the login. A login (otp_login or an attested stamp_login) is recorded under the bare id.
 */
export const spentTokenKey = (tokenId: string, usage: 'login' | 'signup'): string => (usage === 'login' ? tokenId : `signup:${tokenId}`);

/** Marks the token used for `usage`. @throws AppError 400 when it was used for that before */
export async function spendVerificationToken(ctx: TActivityContext, claims: TVerificationTokenClaims, usage: 'login' | 'signup' = 'login'): Promise<void> {
  if (!(await ctx.tx.logins.spendVerificationToken(spentTokenKey(claims.id, usage), ctx.organizationId))) {
    throw new AppError('BAD_REQUEST', `verificationToken: already used for a ${usage === 'login' ? 'login' : 'sign-up'}`, { field: 'verificationToken' });
  }
}

function clientSignatureFailed(e: unknown): never {
  if (e instanceof ClientSignatureError) throw new AppError('BAD_REQUEST', `clientSignature: ${e.message}`, { field: 'clientSignature', reason: e.reason });
  throw e;
}

/**
 * otp_login's proof: the token's key signed the login usage of this token for this session key
 * (`{"login":{"publicKey":…},"tokenId":…,"type":"USAGE_TYPE_LOGIN"}`, or newer clients'
 * `loginV2`). The message received is parsed, not rebuilt, so every client version's shape works.
 * @throws AppError 400
 */
export function checkLoginClientSignature(claims: TVerificationTokenClaims, sessionPublicKey: string, sig: TClientSignature | undefined): void {
  if (!sig) {
    if (claims.publicKey) throw new AppError('BAD_REQUEST', 'clientSignature: required, because the verification token is bound to a public key', { field: 'clientSignature' });
    return;
  }
  try {
    const usage = parseTokenUsageMessage(sig.message);
    if (usage.type !== 'USAGE_TYPE_LOGIN' || usage.tokenId !== claims.id || usage.publicKey.toLowerCase() !== sessionPublicKey.toLowerCase()) {
      throw new AppError('BAD_REQUEST', 'clientSignature: message must be the login usage of this token and session key', { field: 'clientSignature.message' });
    }
    verifyClientSignature(sig, claims.publicKey);
  } catch (e) {
    clientSignatureFailed(e);
  }
}

/** What a sign-up registers for its root users, as the client signature must cover it. */
export interface TSignupRequest {
  subOrganizationName: string;
  rootUsers: readonly {
    userEmail?: string | undefined;
    userPhoneNumber?: string | undefined;
    apiKeys: readonly { publicKey: string; curveType: string }[];
    authenticators: readonly { attestation: { credentialId: string } }[];
    oauthProviders: readonly { oidcToken?: string | undefined; oidcClaims?: { iss: string; sub: string; aud: string } | undefined }[];
  }[];
}

/** A credential as far as the signed usage and the request must agree on it. */
const credentialKeys = {
  apiKeys: (k: unknown) => {
    const r = (k ?? {}) as { publicKey?: unknown; curveType?: unknown };
    return `${String(r.publicKey ?? '').toLowerCase()}|${String(r.curveType ?? '')}`;
  },
  authenticators: (a: unknown) => String(((a ?? {}) as { attestation?: { credentialId?: unknown } }).attestation?.credentialId ?? ''),
  oauthProviders: (o: unknown) => {
    const r = (o ?? {}) as { oidcToken?: unknown; oidcClaims?: { iss?: unknown; sub?: unknown; aud?: unknown } };
    return r.oidcToken !== undefined ? `token|${String(r.oidcToken)}` : `claims|${String(r.oidcClaims?.iss)}|${String(r.oidcClaims?.sub)}|${String(r.oidcClaims?.aud)}`;
  },
} as const;
type TCredentialKind = keyof typeof credentialKeys;
const CREDENTIAL_KINDS = Object.keys(credentialKeys) as TCredentialKind[];

function sameMultiset(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const sortedB = [...b].sort();
  return [...a].sort().every((x, i) => x === sortedB[i]);
}

function signedArray(usage: Record<string, unknown>, kind: string, where: string): unknown[] {
  const v = usage[kind];
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new AppError('BAD_REQUEST', `clientSignature: ${where}${kind} must be an array`, { field: 'clientSignature.message' });
  return v;
}

function signedMismatch(what: string): AppError {
  return new AppError('BAD_REQUEST', `clientSignature: the signed sign-up does not match the request: ${what}`, { field: 'clientSignature.message', mismatch: what });
}

/**
 * The signed sign-up (notes §8) must describe this very request, or a party between the client
 * and the server could swap in its own credentials under the client's signature. `signup` and
 * `signupV2` (core 2.8) carry one user's `apiKeys`, `authenticators`, `oauthProviders`, `email`,
 * `phoneNumber`: the credentials are compared with all root users' together (absent means none),
 * the contact with some root user's. `signupV3` carries the whole request: its
 * `subOrganizationName` and each root user's contact and credentials are compared in order.
 * @throws AppError 400 naming what differs
 */
export function assertSignupUsageMatches(variant: 'signup' | 'signupV2' | 'signupV3', usage: Record<string, unknown>, req: TSignupRequest): void {
  const sameEmail = (a: unknown, b: string | undefined) => typeof a === 'string' && b !== undefined && a.toLowerCase() === b.toLowerCase();
  if (variant === 'signupV3') {
    if (usage['subOrganizationName'] !== undefined && usage['subOrganizationName'] !== req.subOrganizationName) throw signedMismatch('subOrganizationName');
    const signedUsers = usage['rootUsers'];
    if (!Array.isArray(signedUsers) || signedUsers.length !== req.rootUsers.length) throw signedMismatch('rootUsers');
    req.rootUsers.forEach((u, i) => {
      const su = (signedUsers[i] ?? {}) as Record<string, unknown>;
      if ((su['userEmail'] ?? undefined) !== undefined || u.userEmail !== undefined) {
        if (!sameEmail(su['userEmail'], u.userEmail)) throw signedMismatch(`rootUsers[${i}].userEmail`);
      }
      if ((su['userPhoneNumber'] ?? undefined) !== u.userPhoneNumber) throw signedMismatch(`rootUsers[${i}].userPhoneNumber`);
      for (const kind of CREDENTIAL_KINDS) {
        const signed = signedArray(su, kind, `rootUsers[${i}].`).map(credentialKeys[kind]);
        if (!sameMultiset(signed, (u[kind] as readonly unknown[]).map(credentialKeys[kind]))) throw signedMismatch(`rootUsers[${i}].${kind}`);
      }
    });
    return;
  }
  const email = usage['email'];
  if (email !== undefined && !req.rootUsers.some((u) => sameEmail(email, u.userEmail))) throw signedMismatch('email');
  const phone = usage['phoneNumber'];
  if (phone !== undefined && !req.rootUsers.some((u) => u.userPhoneNumber === phone)) throw signedMismatch('phoneNumber');
  for (const kind of CREDENTIAL_KINDS) {
    const signed = signedArray(usage, kind, '').map(credentialKeys[kind]);
    const given = req.rootUsers.flatMap((u) => (u[kind] as readonly unknown[]).map(credentialKeys[kind]));
    if (!sameMultiset(signed, given)) throw signedMismatch(kind);
  }
}

/**
 * A sign-up's proof (create_sub_organization with a verificationToken): the token is valid,
 * unused (spent now) and, when bound to a key, its signup usage is signed by that key and
 * describes this request (assertSignupUsageMatches).
 * @throws AppError 400
 */
export async function verifySignupToken(ctx: TActivityContext, jwt: string, sig: TClientSignature | undefined, req: TSignupRequest): Promise<TVerificationTokenClaims> {
  const claims = await checkVerificationToken(ctx, jwt);
  if (claims.publicKey) {
    if (!sig) throw new AppError('BAD_REQUEST', 'clientSignature: required, because the verification token is bound to a public key', { field: 'clientSignature' });
    let usage;
    try {
      usage = parseTokenUsageMessage(sig.message);
    } catch (e) {
      clientSignatureFailed(e);
    }
    if (usage.type !== 'USAGE_TYPE_SIGNUP' || usage.tokenId !== claims.id) {
      throw new AppError('BAD_REQUEST', 'clientSignature: message must be the signup usage of this token', { field: 'clientSignature.message' });
    }
    try {
      verifyClientSignature(sig, claims.publicKey);
    } catch (e) {
      clientSignatureFailed(e);
    }
    assertSignupUsageMatches(usage.variant, usage.usage, req);
  }
  await spendVerificationToken(ctx, claims, 'signup');
  return claims;
}
