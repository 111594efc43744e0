/**
 * Recognising "the database is unavailable" in whatever wrapping it reaches the error writer:
 * pg's own errors (a socket error, a server ErrorResponse with a SQLSTATE, or a plain Error such
 * as "Connection terminated unexpectedly"), and Prisma's driver-adapter wrappers of them
 * (`PrismaClientKnownRequestError {code: P1001 | P2010, meta.driverAdapterError.cause}`). These are
 * transient: the answer is 503 UNAVAILABLE with Retry-After, not a 500 that reads as a bug.
 *
 * Structural on purpose: libs/http may not import Prisma or pg (layering), and the shapes are
 * stable parts of both libraries' contracts (codes, not classes).
 */

/** Node socket errors that mean the server cannot be reached or dropped us. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of an unavailable server. Class 08 is "connection exception"; 57P01 admin_shutdown,
 * 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, shutting down, in recovery);
 * 53300 too_many_connections (the server is up but full: retrying later helps).
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const isConnectionException = (code: string) => /^08[0-9A-Z]{3}$/.test(code);

/** Prisma's own codes: P1001 can't reach, P1002 timed out reaching, P1017 server closed the connection. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1017']);

/** The driver adapter's error kinds (`DriverAdapterError.cause.kind`) for the same conditions. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);

/**
 * pg's errors that carry no code: the socket ended, a client that already failed was used again,
 * or the pool could not get a connection in time.
 */
const PG_MESSAGES = [/^Connection terminated( unexpectedly)?\b/, /^Client has encountered a connection error and is not queryable$/, /^timeout exceeded when trying to connect$/, /^Connection terminated due to connection timeout$/];

/** How deep to follow causes: enough for every wrapping seen, bounded against cycles. */
const MAX_DEPTH = 6;

function matchesOne(e: object): boolean {
  const { code, kind, originalCode, message } = e as { code?: unknown; kind?: unknown; originalCode?: unknown; message?: unknown };
  for (const c of [code, originalCode]) {
    if (typeof c !== 'string') continue;
    if (SOCKET_CODES.has(c) || SQLSTATES.has(c) || isConnectionException(c) || PRISMA_CODES.has(c)) return true;
  }
  if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
  // Only code-less errors by message: a coded error said what it was.
  return code === undefined && typeof message === 'string' && PG_MESSAGES.some((re) => re.test(message));
}

/** What an error wraps: `cause`, Prisma's `meta.driverAdapterError`, an AggregateError's `errors`. */
function wrapped(e: object): unknown[] {
  const { cause, meta, errors } = e as { cause?: unknown; meta?: { driverAdapterError?: unknown }; errors?: unknown };
  const out: unknown[] = [cause];
  if (typeof meta === 'object' && meta !== null) out.push(meta.driverAdapterError);
  if (Array.isArray(errors)) out.push(...errors);
  return out;
}

/** True when `e`, or anything it wraps, says the database cannot be reached or dropped the connection. */
export function isDatabaseUnavailable(e: unknown): boolean {
  const seen = new Set<object>();
  let level: unknown[] = [e];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const x of level) {
      if (typeof x !== 'object' || x === null || seen.has(x)) continue;
      seen.add(x);
      if (matchesOne(x)) return true;
      next.push(...wrapped(x));
    }
    level = next;
  }
  return false;
}
