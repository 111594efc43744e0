/**
 * Shared wire shapes: identifiers, protobuf-style timestamps, pagination options, and the user
 * record (needed both by activity votes and by `get_organization`, so it lives here to keep
 * `activity.ts` and `queries.ts` free of an import cycle).
 */
import { z } from 'zod';
import {
  ZAuthenticationTypeSchema,
  ZAuthenticatorTransportSchema,
  ZCredentialTypeSchema,
} from './enums.js';

// ---------------------------------------------------------------------------------------------
// Identifiers
// ---------------------------------------------------------------------------------------------

export const MAX_IDENTIFIER_LENGTH = 256;

/** Any identifier on the wire (organization, user, wallet, activity id …): a non-empty string. */
export const ZIdentifierSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_IDENTIFIER_LENGTH, `must be at most ${MAX_IDENTIFIER_LENGTH} characters`);
export type TIdentifier = z.infer<typeof ZIdentifierSchema>;

// ---------------------------------------------------------------------------------------------
// Timestamps
// ---------------------------------------------------------------------------------------------

/** A protobuf `Timestamp` as grpc-gateway writes it: both halves are decimal strings. */
export const ZTimestampSchema = z.object({
  seconds: z.string().regex(/^-?[0-9]+$/, 'must be a decimal integer string'),
  nanos: z.string().regex(/^[0-9]{1,9}$/, 'must be a decimal string from 0 to 999999999'),
});
export type TTimestamp = z.infer<typeof ZTimestampSchema>;

/**
 * Converts a `Date` to the wire timestamp (millisecond precision, so `nanos` is a multiple of 1e6).
 * `nanos` is never negative, as protobuf requires, even for dates before 1970.
 * @throws RangeError when `date` is an invalid Date.
 */
export function toTimestamp(date: Date): TTimestamp {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('toTimestamp: date is invalid');
  const seconds = Math.floor(ms / 1000);
  const millis = ms - seconds * 1000;
  return { seconds: String(seconds), nanos: String(millis * 1_000_000) };
}

// ---------------------------------------------------------------------------------------------
// Pagination
// ---------------------------------------------------------------------------------------------

export const DEFAULT_PAGINATION_LIMIT = 10;
export const MAX_PAGINATION_LIMIT = 100;

const LIMIT_MESSAGE = `must be an integer from 1 to ${MAX_PAGINATION_LIMIT}, written as a decimal string`;

// proto3 has no "unset" for strings: an empty string is the field's default, and Turnkey's server
// treats it as absent. We do the same so a client that always sends every key is not rejected.

/** `paginationOptions.limit`: a decimal string on the wire; a JSON number is tolerated. */
const ZPaginationLimitSchema = z
  .union([z.string().regex(/^[0-9]*$/, LIMIT_MESSAGE), z.number().int(LIMIT_MESSAGE)], { error: LIMIT_MESSAGE })
  .transform((v) => (v === '' ? undefined : Number(v)))
  .pipe(z.number().min(1, LIMIT_MESSAGE).max(MAX_PAGINATION_LIMIT, LIMIT_MESSAGE).optional())
  .optional();

/** `paginationOptions.before` / `.after`: an object id; empty means unset (see above). */
const ZCursorSchema = z
  .string()
  .max(MAX_IDENTIFIER_LENGTH, `must be at most ${MAX_IDENTIFIER_LENGTH} characters`)
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/**
 * Cursor pagination `{limit?, before?, after?}` (all strings on the wire). Parsing normalises it
 * to `{limit: number, before?, after?}` with `limit` defaulting to 10; `before` and `after` are
 * exclusive cursors (object ids) and may not both be set.
 */
export const ZPaginationOptionsSchema = z
  .object({
    limit: ZPaginationLimitSchema,
    before: ZCursorSchema,
    after: ZCursorSchema,
  })
  .refine((o) => o.before === undefined || o.after === undefined, {
    message: 'before and after cannot both be set; page in one direction at a time',
  })
  .transform((o) => {
    const out: { limit: number; before?: string; after?: string } = { limit: o.limit ?? DEFAULT_PAGINATION_LIMIT };
    if (o.before !== undefined) out.before = o.before;
    if (o.after !== undefined) out.after = o.after;
    return out;
  });
/** Pagination options as a client sends them. */
export type TPaginationOptionsInput = z.input<typeof ZPaginationOptionsSchema>;
/** Pagination options after parsing: `limit` is a number, the default applied. */
export type TPaginationOptions = z.output<typeof ZPaginationOptionsSchema>;

/**
 * Normalises optional pagination options (absent means all defaults).
 * @throws ZodError when `limit` is not an integer 1..100, or when both `before` and `after` are set.
 */
export function parsePagination(opts?: TPaginationOptionsInput | null): TPaginationOptions {
  return ZPaginationOptionsSchema.parse(opts ?? {});
}

// ---------------------------------------------------------------------------------------------
// User record (v1User) and its parts
// ---------------------------------------------------------------------------------------------

export const ZCredentialSchema = z.object({
  publicKey: z.string(),
  type: ZCredentialTypeSchema,
  sessionProfileId: z.string().optional(),
});
export type TCredential = z.infer<typeof ZCredentialSchema>;

export const ZApiKeySchema = z.object({
  credential: ZCredentialSchema,
  apiKeyId: ZIdentifierSchema,
  apiKeyName: z.string(),
  createdAt: ZTimestampSchema,
  updatedAt: ZTimestampSchema,
  /** Lifetime in seconds, a uint64 written as a decimal string. */
  expirationSeconds: z.string().optional(),
});
export type TApiKey = z.infer<typeof ZApiKeySchema>;

export const ZAuthenticatorSchema = z.object({
  transports: z.array(ZAuthenticatorTransportSchema),
  attestationType: z.string(),
  aaguid: z.string(),
  credentialId: z.string(),
  model: z.string(),
  credential: ZCredentialSchema,
  authenticatorId: ZIdentifierSchema,
  authenticatorName: z.string(),
  createdAt: ZTimestampSchema,
  updatedAt: ZTimestampSchema,
});
export type TAuthenticator = z.infer<typeof ZAuthenticatorSchema>;

export const ZOauthProviderSchema = z.object({
  providerId: ZIdentifierSchema,
  providerName: z.string(),
  issuer: z.string(),
  audience: z.string(),
  subject: z.string(),
  createdAt: ZTimestampSchema,
  updatedAt: ZTimestampSchema,
});
export type TOauthProvider = z.infer<typeof ZOauthProviderSchema>;

export const ZMfaPolicySchema = z.object({
  mfaPolicyId: ZIdentifierSchema,
  mfaPolicyName: z.string(),
  condition: z.string(),
  requiredAuthenticationMethods: z.array(
    z.object({ any: z.array(z.object({ type: ZAuthenticationTypeSchema, id: z.string().optional() })) }),
  ),
  order: z.number().int(),
  notes: z.string().optional(),
  createdAt: ZTimestampSchema,
  updatedAt: ZTimestampSchema,
});
export type TMfaPolicy = z.infer<typeof ZMfaPolicySchema>;

/** A user as returned inside votes and `get_organization` (swagger `v1User`). */
export const ZUserSchema = z.object({
  userId: ZIdentifierSchema,
  userName: z.string(),
  userEmail: z.string().optional(),
  userPhoneNumber: z.string().optional(),
  authenticators: z.array(ZAuthenticatorSchema),
  apiKeys: z.array(ZApiKeySchema),
  userTags: z.array(z.string()),
  oauthProviders: z.array(ZOauthProviderSchema),
  createdAt: ZTimestampSchema,
  updatedAt: ZTimestampSchema,
  mfaPolicies: z.array(ZMfaPolicySchema),
});
export type TUser = z.infer<typeof ZUserSchema>;
