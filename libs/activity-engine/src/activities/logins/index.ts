/** Logins and sessions: stamp_login and read-write sessions, OTP, OIDC, e-mail auth and recovery. One file per kind; this list is the folder's whole registration. */
import { stampLogin } from './sessions/stamp-login.js';
import { createReadWriteSession } from './sessions/create-read-write-session.js';
import { initOtp } from './otp/init-otp.js';
import { verifyOtp } from './otp/verify-otp.js';
import { otpLogin } from './otp/otp-login.js';
import { initOtpAuth } from './otp/init-otp-auth.js';
import { otpAuth } from './otp/otp-auth.js';
import { oauthLogin } from './oauth/oauth-login.js';
import { oauth } from './oauth/oauth.js';
import { emailAuth } from './email-auth/email-auth.js';
import { initUserEmailRecovery } from './recovery/init-user-email-recovery.js';
import { recoverUser } from './recovery/recover-user.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const LOGINS_ACTIVITIES: readonly TAnyActivityDefinition[] = [
  stampLogin,
  createReadWriteSession,
  initOtp,
  verifyOtp,
  otpLogin,
  initOtpAuth,
  otpAuth,
  oauthLogin,
  oauth,
  emailAuth,
  initUserEmailRecovery,
  recoverUser,
];
