/**
 * tRPC errors in the platform's one shape. Whatever a procedure throws becomes an AppError — the
 * engine's own, a zod refusal of the input (400 with the failing paths), tRPC's own refusals
 * (unknown procedure 404, wrong method 400), or an unexpected fault (500 INTERNAL, logged, its
 * message never sent) — and the wire carries its rpcStatus `{code, message, details}` plus the
 * Latchkey code and HTTP status for the dashboard. No stack, no paths, in any environment.
 */
import { AppError, ERROR_TABLE, fromZodIssues, isAppError, type TErrorBody, type TErrorCode } from '@latchkey/domain';
import type { TRPCError } from '@trpc/server';

const TRPC_CODES: Partial<Record<TRPCError['code'], TErrorCode>> = {
  PARSE_ERROR: 'BAD_REQUEST',
  BAD_REQUEST: 'BAD_REQUEST',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_SUPPORTED: 'BAD_REQUEST',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNAUTHORIZED: 'UNAUTHENTICATED',
  FORBIDDEN: 'REQUEST_NOT_AUTHORIZED',
  TOO_MANY_REQUESTS: 'RATE_LIMITED',
};

const isZodError = (e: unknown): e is { issues: { path: PropertyKey[]; message: string }[] } =>
  typeof e === 'object' && e !== null && Array.isArray((e as { issues?: unknown }).issues) && (e as Error).name === 'ZodError';

const DB_DOWN = /ECONNREFUSED|ECONNRESET|Connection terminated|connect ETIMEDOUT|the database system is (starting up|shutting down)/;

/** The AppError a tRPC error stands for; `unexpected` is set for faults that must be logged. */
export function appErrorOf(error: TRPCError): { appError: AppError; unexpected: boolean } {
  const cause = error.cause;
  if (isAppError(cause)) return { appError: cause, unexpected: false };
  if (isZodError(cause)) return { appError: fromZodIssues('input', cause.issues), unexpected: false };
  const mapped = TRPC_CODES[error.code];
  if (mapped) {
    const message = error.code === 'NOT_FOUND' ? 'no such procedure' : error.code === 'METHOD_NOT_SUPPORTED' ? 'wrong HTTP method for this procedure (queries and mutations are POSTed, stamped)' : error.message;
    return { appError: new AppError(mapped, message), unexpected: false };
  }
  if (cause && DB_DOWN.test(String((cause as Error).message))) {
    return { appError: new AppError('UNAVAILABLE', 'temporarily unavailable: the database cannot be reached; retry later'), unexpected: false };
  }
  return { appError: new AppError('INTERNAL', 'internal server error'), unexpected: true };
}

/** The error shape on the wire: rpcStatus, plus what the typed client reads from `data`. */
export interface TAdminErrorShape extends TErrorBody {
  data: { latchkeyCode: TErrorCode; httpStatus: number };
}

export function adminErrorShape(error: TRPCError): TAdminErrorShape {
  const { appError } = appErrorOf(error);
  return { ...appError.toBody(), data: { latchkeyCode: appError.code, httpStatus: ERROR_TABLE[appError.code].httpStatus } };
}
