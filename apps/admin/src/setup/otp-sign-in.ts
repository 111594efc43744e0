/**
 * E-mail OTP sign-in to the dashboard, with the platform's own OTP activities — what Turnkey's
 * `loginWithOtp` does through an app's backend, the admin app playing that backend with the
 * bootstrap key (bootstrap-signer.ts):
 *
 * 1. `startOtpSignIn`: `init_otp` (V3) sends a code to the e-mail address through the platform's
 *    mail delivery — only when a user of the organization has that address. Anyone else gets the
 *    same answer and nothing is sent, so the sign-in form neither tells who is a user nor mails
 *    strangers for whoever types their address.
 * 2. `verifyOtpSignIn`: `verify_otp` (V1, the plain code) checks the code and returns a
 *    verification token bound to the session key the browser generated (its public half).
 * 3. The browser then signs `stamp_login` with that key as `X-Stamp-Attested`, the token vouching
 *    for it — the same `session.stampLogin` a passkey sign-in uses — and the engine registers it
 *    as a session key of the user and spends the token.
 *
 * The limits are the engine's, as on the public API: 5 codes per address per 10 minutes, 5
 * attempts per code, codes expire (5 minutes here); a wrong code is 400 `Invalid OTP code`. Codes
 * travel in request bodies only and are never logged (the admin logs a refusal's message, never a
 * procedure's input).
 */
import type { TEngine } from '@latchkey/activity-engine';
import { newId } from '@latchkey/crypto';
import { AppError, INIT_OTP_ACTIVITY, isAppError, VERIFY_OTP_ACTIVITY, type TListUsersResponse } from '@latchkey/domain';
import { bootstrapSigner, completedResult, queryAsBootstrap, readBootstrapIdentity, submitAsBootstrap } from './bootstrap-signer.js';

/** The code the dashboard asks for: six digits (typed from a phone), valid five minutes. */
export const ADMIN_OTP = { appName: 'Latchkey admin', otpLength: 6, alphanumeric: false, expirationSeconds: '300' } as const;

/**
 * Sends a sign-in code to `email` when a user of `organizationId` has it.
 * @returns the OTP id to verify against (a random one, nothing sent, for an address no user has)
 * @throws AppError 429 (too many codes for the address), 403 (OTP e-mail login disabled for a
 *   sub-organization, or no bootstrap key), 404 (no such organization), 503 (mail delivery failed)
 */
export async function startOtpSignIn(engine: TEngine, dataDir: string, input: { organizationId: string; email: string }): Promise<{ otpId: string }> {
  const signer = bootstrapSigner(await readBootstrapIdentity(dataDir), 'e-mail sign-in');
  const email = input.email.trim().toLowerCase();
  const { users } = await queryAsBootstrap<TListUsersResponse>(engine, signer, 'list_users', { organizationId: input.organizationId });
  if (!users.some((u) => u.userEmail?.toLowerCase() === email)) return { otpId: newId() };
  const activity = await submitAsBootstrap(engine, signer, INIT_OTP_ACTIVITY, input.organizationId, { otpType: 'OTP_TYPE_EMAIL', contact: email, ...ADMIN_OTP });
  return { otpId: completedResult<{ otpId: string }>(activity, 'initOtpResultV2').otpId };
}

/**
 * Checks the code; answers a verification token bound to `publicKey` (the browser's session key).
 * @throws AppError 400 `Invalid OTP code` (wrong, or an id that sent nothing), 400 expired/used, 429 (attempts used up)
 */
export async function verifyOtpSignIn(engine: TEngine, dataDir: string, input: { organizationId: string; otpId: string; otpCode: string; publicKey: string }): Promise<{ verificationToken: string }> {
  const signer = bootstrapSigner(await readBootstrapIdentity(dataDir), 'e-mail sign-in');
  let activity;
  try {
    activity = await submitAsBootstrap(engine, signer, VERIFY_OTP_ACTIVITY, input.organizationId, { otpId: input.otpId, otpCode: input.otpCode, publicKey: input.publicKey }, 'ACTIVITY_TYPE_VERIFY_OTP');
  } catch (e) {
    // An id startOtpSignIn made up (no user has the address) must look like any wrong code.
    if (isAppError(e) && e.code === 'NOT_FOUND') throw new AppError('BAD_REQUEST', 'Invalid OTP code', { otpId: input.otpId });
    throw e;
  }
  return { verificationToken: completedResult<{ verificationToken: string }>(activity, 'verifyOtpResult').verificationToken };
}
