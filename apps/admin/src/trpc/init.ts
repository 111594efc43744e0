/**
 * The tRPC instance and the two kinds of procedure. `publicProcedure` is for what precedes a
 * session (the setup link, the sign-in itself, which carries its own passkey stamp); everything
 * else is a `stampedProcedure`: it refuses a call without a stamped body before any input is
 * parsed, and the procedure then hands the request to the engine, which verifies the stamp over
 * the raw bytes exactly as the public API does.
 */
import { AppError } from '@latchkey/domain';
import { initTRPC } from '@trpc/server';
import type { TAdminContext } from './context.js';
import { adminErrorShape } from './errors.js';

const t = initTRPC.context<TAdminContext>().create({
  isDev: false,
  errorFormatter: ({ error }) => adminErrorShape(error),
});

export const router = t.router;
export const publicProcedure = t.procedure;

const STAMP_HEADERS = ['x-stamp', 'x-stamp-webauthn', 'x-stamp-attested'];

export const stampedProcedure = t.procedure.use(({ ctx, next }) => {
  if (!STAMP_HEADERS.some((h) => ctx.headers[h] !== undefined)) {
    throw new AppError('SIGNATURE_MISSING', 'this procedure needs a stamp: send X-Stamp (your session key) over the exact request body');
  }
  if (ctx.raw.length === 0) throw new AppError('BAD_REQUEST', 'a stamped call carries its input as a JSON body (POST), the bytes the stamp signs');
  return next();
});
