/**
 * Signing in. `config` tells the sign-in page which organization to log in to; `setupInfo` and
 * `setupRegister*` spend a one-time setup link; `otpInit` / `otpVerify` are the e-mail OTP sign-in's
 * first two steps (setup/otp-sign-in.ts); `stampLogin` turns a passkey (X-Stamp-Webauthn), an
 * OTP-vouched key (X-Stamp-Attested) or an API-key stamp into a session key the browser made
 * itself; `whoami` checks a session.
 */
import { checkAdminSetupToken } from '@latchkey/platform';
import {
  isEmailAddress,
  STAMP_LOGIN_ACTIVITY,
  ZAuthenticatorParamsV2Schema,
  ZCompressedP256HexSchema,
  ZIdentifierSchema,
  ZStampLoginIntentSchema,
  ZWhoamiRequestSchema,
  type TWhoamiResponse,
} from '@latchkey/domain';
import { z } from 'zod';
import { engineQuery, engineSubmit } from '../trpc/engine-calls.js';
import { publicProcedure, router } from '../trpc/init.js';
import { startOtpSignIn, verifyOtpSignIn } from '../setup/otp-sign-in.js';
import { readBootstrapIdentity } from '../setup/bootstrap-signer.js';
import { registerRootCredential } from '../setup/register-root-credential.js';

const ZSetupTokenSchema = z.string().min(16).max(128);

export const sessionRouter = router({
  /** Unauthenticated: the root organization a sign-in targets by default. */
  config: publicProcedure.query(async ({ ctx }) => {
    const boot = await readBootstrapIdentity(ctx.services.dataDir);
    return { rootOrganizationId: boot.organizationId };
  }),
  setupInfo: publicProcedure.input(z.object({ token: ZSetupTokenSchema })).query(async ({ ctx, input }) => {
    const { expiresAt } = await checkAdminSetupToken(ctx.services.dataDir, input.token);
    const boot = await readBootstrapIdentity(ctx.services.dataDir);
    return { organizationId: boot.organizationId, userId: boot.userId, expiresAt: expiresAt.toISOString(), canRegister: Boolean(boot.apiPrivateKey) };
  }),
  setupRegisterPasskey: publicProcedure
    .input(z.object({ token: ZSetupTokenSchema, authenticator: ZAuthenticatorParamsV2Schema }))
    .mutation(({ ctx, input }) => registerRootCredential(ctx.services.engine, ctx.services.dataDir, input.token, { kind: 'passkey', authenticator: input.authenticator })),
  setupRegisterApiKey: publicProcedure
    .input(z.object({ token: ZSetupTokenSchema, apiKeyName: z.string().min(1).max(256), publicKey: ZCompressedP256HexSchema }))
    .mutation(({ ctx, input }) =>
      registerRootCredential(ctx.services.engine, ctx.services.dataDir, input.token, { kind: 'api-key', apiKey: { apiKeyName: input.apiKeyName, publicKey: input.publicKey, curveType: 'API_KEY_CURVE_P256' } }),
    ),
  /** Unauthenticated: mails a sign-in code to a user of the organization with this address. */
  otpInit: publicProcedure
    .input(z.object({ organizationId: ZIdentifierSchema, email: z.string().trim().max(320).refine(isEmailAddress, 'must be an e-mail address') }))
    .mutation(({ ctx, input }) => startOtpSignIn(ctx.services.engine, ctx.services.dataDir, input)),
  /** Unauthenticated: the code for a verification token bound to the browser's session key. */
  otpVerify: publicProcedure
    .input(z.object({ organizationId: ZIdentifierSchema, otpId: ZIdentifierSchema, otpCode: z.string().trim().min(1).max(64), publicKey: ZCompressedP256HexSchema }))
    .mutation(({ ctx, input }) => verifyOtpSignIn(ctx.services.engine, ctx.services.dataDir, input)),
  stampLogin: engineSubmit(STAMP_LOGIN_ACTIVITY, ZStampLoginIntentSchema),
  whoami: engineQuery<TWhoamiResponse, typeof ZWhoamiRequestSchema>('whoami', ZWhoamiRequestSchema),
});
