/**
 * The one error type of the platform. Every fault that reaches a client is an `AppError` with a
 * stable code; one table maps each code to its HTTP status, its gRPC code and Turnkey's
 * `turnkeyErrorCode`, so the wire shape `{code, message, details}` is produced in one place.
 */

/** gRPC status codes used on the wire (grpc-gateway `rpcStatus.code`). */
const GrpcCode = {
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

interface ErrorSpec {
  readonly httpStatus: number;
  readonly grpcCode: number;
  readonly turnkeyErrorCode: string;
}

/**
 * Code → HTTP status, gRPC code and Turnkey error code. The only such table. The comment on each
 * entry says when the code is raised; a code that fits none of them is a new entry, not a stretch.
 */
export const ERROR_TABLE = {
  /** The request is malformed or asks for something invalid: body not a JSON object, a zod refusal
   *  (`fromZodIssues`), a vote on an activity no longer awaiting consensus, a refused OAuth code; also
   *  any other 4xx the framework raises itself. */
  BAD_REQUEST: { httpStatus: 400, grpcCode: GrpcCode.INVALID_ARGUMENT, turnkeyErrorCode: 'REQUEST_INVALID' },
  /** The body's organizationId is not the signer's organization, nor one it may act in (its
   *  sub-organization, or a login via the parent); also voters from another organization. */
  ORGANIZATION_MISMATCH: { httpStatus: 400, grpcCode: GrpcCode.INVALID_ARGUMENT, turnkeyErrorCode: 'INVALID_ORGANIZATION_ID' },
  /** `timestampMs` of a submission or vote is not within the configured window of the server's clock. */
  TIMESTAMP_OUT_OF_WINDOW: { httpStatus: 400, grpcCode: GrpcCode.INVALID_ARGUMENT, turnkeyErrorCode: 'REQUEST_INVALID' },
  /** The body's `type` is not one the submit or vote path accepts (another activity's, or an
   *  unsupported version). */
  UNKNOWN_ACTIVITY_TYPE: { httpStatus: 400, grpcCode: GrpcCode.INVALID_ARGUMENT, turnkeyErrorCode: 'REQUEST_INVALID' },
  /** No stamp header on an authenticated route (from the crypto lib's `StampError`). */
  SIGNATURE_MISSING: { httpStatus: 401, grpcCode: GrpcCode.UNAUTHENTICATED, turnkeyErrorCode: 'SIGNATURE_MISSING' },
  /** The stamp does not verify over the raw body, is malformed, uses an unsupported scheme, or
   *  several stamp headers were sent. */
  SIGNATURE_INVALID: { httpStatus: 401, grpcCode: GrpcCode.UNAUTHENTICATED, turnkeyErrorCode: 'SIGNATURE_INVALID' },
  /** A valid API-key stamp whose public key belongs to no user of the target or its parent. */
  PUBLIC_KEY_NOT_FOUND: { httpStatus: 401, grpcCode: GrpcCode.UNAUTHENTICATED, turnkeyErrorCode: 'PUBLIC_KEY_NOT_FOUND' },
  /** A WebAuthn stamp whose credential id belongs to no user of the target or its parent. */
  CREDENTIAL_NOT_FOUND: { httpStatus: 401, grpcCode: GrpcCode.UNAUTHENTICATED, turnkeyErrorCode: 'CREDENTIAL_NOT_FOUND' },
  /** The stamping API key exists but its `expiresAt` has passed. */
  API_KEY_EXPIRED: { httpStatus: 401, grpcCode: GrpcCode.UNAUTHENTICATED, turnkeyErrorCode: 'API_KEY_EXPIRED' },
  /** A credential, contact or OIDC token resolving a login matches users in more than one sub-organization. */
  CREDENTIAL_CONFLICT: { httpStatus: 401, grpcCode: GrpcCode.UNAUTHENTICATED, turnkeyErrorCode: 'CREDENTIAL_CONFLICT' },
  /** Any other refusal of who the caller is: an attested stamp refused (or its verification token
   *  already spent), a credential that no longer belongs to a user. */
  UNAUTHENTICATED: { httpStatus: 401, grpcCode: GrpcCode.UNAUTHENTICATED, turnkeyErrorCode: 'UNAUTHENTICATED' },
  /** The caller is known but may not do this: a policy denied it, a recovery or attested credential
   *  used beyond its one activity, a login feature disabled for the organization, an import for
   *  another user, a read of an organization the signer cannot read. */
  REQUEST_NOT_AUTHORIZED: { httpStatus: 403, grpcCode: GrpcCode.PERMISSION_DENIED, turnkeyErrorCode: 'REQUEST_NOT_AUTHORIZED' },
  /** A named resource (user, wallet, account, activity, a login's user…) does not exist, or the
   *  endpoint is unknown. */
  NOT_FOUND: { httpStatus: 404, grpcCode: GrpcCode.NOT_FOUND, turnkeyErrorCode: 'NOT_FOUND' },
  /** The request's organizationId, or the organization an activity acts in, does not exist. */
  ORGANIZATION_NOT_FOUND: { httpStatus: 404, grpcCode: GrpcCode.NOT_FOUND, turnkeyErrorCode: 'ORGANIZATION_NOT_FOUND' },
  /** A concurrent request consumed the same single-use resource first (an import target). */
  CONFLICT: { httpStatus: 409, grpcCode: GrpcCode.ALREADY_EXISTS, turnkeyErrorCode: 'REQUEST_INVALID' },
  /** The body exceeds the server's body limit (raised by the framework, mapped by status). */
  PAYLOAD_TOO_LARGE: { httpStatus: 413, grpcCode: GrpcCode.INVALID_ARGUMENT, turnkeyErrorCode: 'REQUEST_INVALID' },
  /** A content type the framework refuses (raised by the framework, mapped by status). */
  UNSUPPORTED_MEDIA_TYPE: { httpStatus: 415, grpcCode: GrpcCode.INVALID_ARGUMENT, turnkeyErrorCode: 'REQUEST_INVALID' },
  /** A limit was hit (OTP sends per contact, attempts per code, or a framework 429); `fields` name
   *  the limit and its window. */
  RATE_LIMITED: { httpStatus: 429, grpcCode: GrpcCode.RESOURCE_EXHAUSTED, turnkeyErrorCode: 'RESOURCE_EXHAUSTED' },
  /** A fault that is not an `AppError`: logged in full, answered without its details. Only the
   *  error handler raises it. */
  INTERNAL: { httpStatus: 500, grpcCode: GrpcCode.INTERNAL, turnkeyErrorCode: 'INTERNAL' },
  /** A dependency is down or not configured: the database (readiness), mail/SMS delivery, an
   *  OAuth 2.0 provider. Retrying later may succeed. */
  UNAVAILABLE: { httpStatus: 503, grpcCode: GrpcCode.UNAVAILABLE, turnkeyErrorCode: 'UNAVAILABLE' },
} as const satisfies Record<string, ErrorSpec>;

export type TErrorCode = keyof typeof ERROR_TABLE;

/** One entry of `details` on the wire, in grpc-gateway's Any encoding. */
export interface TErrorDetail {
  '@type': string;
  [key: string]: unknown;
}

/** The error body every app writes: grpc-gateway `rpcStatus`. */
export interface TErrorBody {
  code: number;
  message: string;
  details: TErrorDetail[];
}

const TURNKEY_ERROR_DETAIL_TYPE = 'type.googleapis.com/errors.v1.TurnkeyErrorDetail';

export class AppError extends Error {
  readonly code: TErrorCode;
  /** Extra, non-secret context for the client (field paths, allowed values). */
  readonly fields: Record<string, unknown> | undefined;

  constructor(code: TErrorCode, message: string, fields?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.fields = fields;
  }

  get httpStatus(): number {
    return ERROR_TABLE[this.code].httpStatus;
  }

  /** The wire body: `{code, message, details}` with `turnkeyErrorCode` in details. */
  toBody(): TErrorBody {
    const spec = ERROR_TABLE[this.code];
    const detail: TErrorDetail = {
      '@type': TURNKEY_ERROR_DETAIL_TYPE,
      turnkeyErrorCode: spec.turnkeyErrorCode,
      latchkeyErrorCode: this.code,
    };
    if (this.fields) detail['fields'] = this.fields;
    return { code: spec.grpcCode, message: this.message, details: [detail] };
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** Turns zod issues into a 400 with the failing paths listed (values are never echoed). */
export function fromZodIssues(
  what: string,
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): AppError {
  const list = issues.slice(0, 10).map((i) => ({ path: i.path.map(String).join('.') || '(root)', message: i.message }));
  const summary = list.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new AppError('BAD_REQUEST', `invalid ${what}: ${summary}`, { issues: list });
}
