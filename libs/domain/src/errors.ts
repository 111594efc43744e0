/**
 * The one error type of the platform. Every fault that reaches a client is an `AppError` with a
 * stable code; one table maps each code to its HTTP status, its gRPC code and Turnkey's
 * `turnkeyErrorCode`, so the wire shape `{code, message, details}` is produced in one place.
 */

/** gRPC status codes used on the wire (grpc-gateway `rpcStatus.code`). */
export const GrpcCode = {
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

interface ErrorSpec {
  readonly httpStatus: number;
  readonly grpcCode: number;
  readonly turnkeyErrorCode: string;
}

/** Code → HTTP status, gRPC code and Turnkey error code. The only such table. */
export const ERROR_TABLE = {
  BAD_REQUEST: { httpStatus: 400, grpcCode: GrpcCode.INVALID_ARGUMENT, turnkeyErrorCode: 'REQUEST_INVALID' },
  ORGANIZATION_MISMATCH: { httpStatus: 400, grpcCode: GrpcCode.INVALID_ARGUMENT, turnkeyErrorCode: 'INVALID_ORGANIZATION_ID' },
  TIMESTAMP_OUT_OF_WINDOW: { httpStatus: 400, grpcCode: GrpcCode.INVALID_ARGUMENT, turnkeyErrorCode: 'REQUEST_INVALID' },
  UNKNOWN_ACTIVITY_TYPE: { httpStatus: 400, grpcCode: GrpcCode.INVALID_ARGUMENT, turnkeyErrorCode: 'REQUEST_INVALID' },
  SIGNATURE_MISSING: { httpStatus: 401, grpcCode: GrpcCode.UNAUTHENTICATED, turnkeyErrorCode: 'SIGNATURE_MISSING' },
  SIGNATURE_INVALID: { httpStatus: 401, grpcCode: GrpcCode.UNAUTHENTICATED, turnkeyErrorCode: 'SIGNATURE_INVALID' },
  PUBLIC_KEY_NOT_FOUND: { httpStatus: 401, grpcCode: GrpcCode.UNAUTHENTICATED, turnkeyErrorCode: 'PUBLIC_KEY_NOT_FOUND' },
  CREDENTIAL_NOT_FOUND: { httpStatus: 401, grpcCode: GrpcCode.UNAUTHENTICATED, turnkeyErrorCode: 'CREDENTIAL_NOT_FOUND' },
  API_KEY_EXPIRED: { httpStatus: 401, grpcCode: GrpcCode.UNAUTHENTICATED, turnkeyErrorCode: 'API_KEY_EXPIRED' },
  CREDENTIAL_CONFLICT: { httpStatus: 401, grpcCode: GrpcCode.UNAUTHENTICATED, turnkeyErrorCode: 'CREDENTIAL_CONFLICT' },
  UNAUTHENTICATED: { httpStatus: 401, grpcCode: GrpcCode.UNAUTHENTICATED, turnkeyErrorCode: 'UNAUTHENTICATED' },
  REQUEST_NOT_AUTHORIZED: { httpStatus: 403, grpcCode: GrpcCode.PERMISSION_DENIED, turnkeyErrorCode: 'REQUEST_NOT_AUTHORIZED' },
  NOT_FOUND: { httpStatus: 404, grpcCode: GrpcCode.NOT_FOUND, turnkeyErrorCode: 'NOT_FOUND' },
  ORGANIZATION_NOT_FOUND: { httpStatus: 404, grpcCode: GrpcCode.NOT_FOUND, turnkeyErrorCode: 'ORGANIZATION_NOT_FOUND' },
  CONFLICT: { httpStatus: 409, grpcCode: GrpcCode.ALREADY_EXISTS, turnkeyErrorCode: 'REQUEST_INVALID' },
  PAYLOAD_TOO_LARGE: { httpStatus: 413, grpcCode: GrpcCode.INVALID_ARGUMENT, turnkeyErrorCode: 'REQUEST_INVALID' },
  UNSUPPORTED_MEDIA_TYPE: { httpStatus: 415, grpcCode: GrpcCode.INVALID_ARGUMENT, turnkeyErrorCode: 'REQUEST_INVALID' },
  RATE_LIMITED: { httpStatus: 429, grpcCode: GrpcCode.RESOURCE_EXHAUSTED, turnkeyErrorCode: 'RESOURCE_EXHAUSTED' },
  INTERNAL: { httpStatus: 500, grpcCode: GrpcCode.INTERNAL, turnkeyErrorCode: 'INTERNAL' },
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

export const TURNKEY_ERROR_DETAIL_TYPE = 'type.googleapis.com/errors.v1.TurnkeyErrorDetail';

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

/** Named constructors for the errors raised in many places (a stable code, a human reason). */
export const errors = {
  badRequest: (message: string, fields?: Record<string, unknown>) => new AppError('BAD_REQUEST', message, fields),
  notFound: (what: string, id: string) => new AppError('NOT_FOUND', `${what} not found: ${id}`, { id }),
  organizationNotFound: (id: string) => new AppError('ORGANIZATION_NOT_FOUND', `organization not found: ${id}`, { organizationId: id }),
  notAuthorized: (reason: string) => new AppError('REQUEST_NOT_AUTHORIZED', `request not authorized: ${reason}`),
  internal: () => new AppError('INTERNAL', 'internal server error'),
};

/** Turns zod issues into a 400 with the failing paths listed (values are never echoed). */
export function fromZodIssues(
  what: string,
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): AppError {
  const list = issues.slice(0, 10).map((i) => ({ path: i.path.map(String).join('.') || '(root)', message: i.message }));
  const summary = list.map((i) => `${i.path}: ${i.message}`).join('; ');
  return new AppError('BAD_REQUEST', `invalid ${what}: ${summary}`, { issues: list });
}
