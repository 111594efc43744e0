/**
 * Verification tokens (protocol notes §8): the ES256 JWT verify_otp returns, signed by the
 * server's OTP key, proving that the holder of `public_key` received the code sent to `contact`.
 * A token is used once — by otp_login or by a sign-up (create_sub_organization) — and the use
 * must be signed by the token's key (`clientSignature`).
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
import type { TActivityContext } from '../../engine/activity-definition.js';
import { withServerKey } from '../../engine/services.js';

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

/** Marks the token used. @throws AppError 400 when it was used before */
export async function spendVerificationToken(ctx: TActivityContext, claims: TVerificationTokenClaims): Promise<void> {
  if (!(await ctx.tx.logins.spendVerificationToken(claims.id, ctx.organizationId))) {
    throw new AppError('BAD_REQUEST', 'verificationToken: already used', { field: 'verificationToken' });
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

/**
 * A sign-up's proof (create_sub_organization with a verificationToken): the token is valid,
 * unused (spent now) and, when bound to a key, its signup usage is signed by that key.
 * @throws AppError 400
 */
export async function verifySignupToken(ctx: TActivityContext, jwt: string, sig: TClientSignature | undefined): Promise<TVerificationTokenClaims> {
  const claims = await checkVerificationToken(ctx, jwt);
  if (claims.publicKey) {
    if (!sig) throw new AppError('BAD_REQUEST', 'clientSignature: required, because the verification token is bound to a public key', { field: 'clientSignature' });
    try {
      const usage = parseTokenUsageMessage(sig.message);
      if (usage.type !== 'USAGE_TYPE_SIGNUP' || usage.tokenId !== claims.id) {
        throw new AppError('BAD_REQUEST', 'clientSignature: message must be the signup usage of this token', { field: 'clientSignature.message' });
      }
    } catch (e) {
      clientSignatureFailed(e);
    }
    try {
      verifyClientSignature(sig, claims.publicKey);
    } catch (e) {
      clientSignatureFailed(e);
    }
  }
  await spendVerificationToken(ctx, claims);
  return claims;
}
