/**
 * Wire schemas of opaque secrets (issue 16 §6): init_import_secrets, import_secrets,
 * export_secrets, delete_secrets and the list_secrets query, with the names of
 * `@turnkey/sdk-types` 1.10's `v1…Secret…` types. A secret is UTF-8 text (an API token, a
 * password) that enters and leaves only inside HPKE bundles of the one transport suite.
 */
import { z } from 'zod';
import { defineActivityWire } from '../activity.js';
import { ZIdentifierSchema, ZPaginationOptionsSchema } from '../common.js';
import { ZTargetPublicKeySchema } from './export-import.js';

/** Secrets one request may import, export or delete (Turnkey documents 1..32 for delete). */
export const MAX_SECRETS_PER_REQUEST = 32;
/** Static properties bound to one secret. */
export const MAX_SECRET_STATIC_PROPERTIES = 16;

export const TRANSPORT_ENCRYPTION_SUITES = ['TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1'] as const;
const ZTransportEncryptionSuiteSchema = z.enum(TRANSPORT_ENCRYPTION_SUITES, { error: 'must be TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1' });

/** `v1KeyValue` as a static property: both halves required here (a property without a key binds nothing). */
export const ZSecretStaticPropertySchema = z.object({
  key: z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters'),
  value: z.string().max(256, 'must be at most 256 characters').default(''),
});
export type TSecretStaticProperty = z.output<typeof ZSecretStaticPropertySchema>;

/** `v1InitImportSecretsIntent`. */
export const ZInitImportSecretsIntentSchema = z.object({
  encryptionSuite: ZTransportEncryptionSuiteSchema,
  numSecrets: z
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(MAX_SECRETS_PER_REQUEST, `must be at most ${MAX_SECRETS_PER_REQUEST}`),
});
export type TInitImportSecretsIntent = z.output<typeof ZInitImportSecretsIntentSchema>;
/** `v1InitImportSecretsResult`. */
export interface TInitImportSecretsResult extends Record<string, unknown> {
  enclaveTargetMessages: string[];
}

/** `v1ImportSecretParams`. */
export const ZImportSecretParamsSchema = z.object({
  name: z
    .string()
    .trim()
    .max(256, 'must be at most 256 characters')
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  secretPayload: z.string().min(1, 'must not be empty').max(100_000, 'is too large'),
  targetPublicKey: ZTargetPublicKeySchema,
  encryptionSuite: ZTransportEncryptionSuiteSchema,
  staticProperties: z
    .array(ZSecretStaticPropertySchema)
    .max(MAX_SECRET_STATIC_PROPERTIES, `must have at most ${MAX_SECRET_STATIC_PROPERTIES} entries`)
    .default([]),
});
/** `v1ImportSecretsIntent`. */
export const ZImportSecretsIntentSchema = z.object({
  secrets: z.array(ZImportSecretParamsSchema).min(1, 'must name at least one secret').max(MAX_SECRETS_PER_REQUEST, `must have at most ${MAX_SECRETS_PER_REQUEST} entries`),
});
export type TImportSecretsIntent = z.output<typeof ZImportSecretsIntentSchema>;
/** `v1ImportSecretsResult`: ids in the order of the params. */
export interface TImportSecretsResult extends Record<string, unknown> {
  secretIds: string[];
}

/** `v1ExportSecretParams`. `requestContext` is recorded with the activity's intent, nothing more. */
export const ZExportSecretParamsSchema = z.object({
  secretId: ZIdentifierSchema,
  targetPublicKey: ZTargetPublicKeySchema,
  encryptionSuite: ZTransportEncryptionSuiteSchema,
  requestContext: z.array(z.object({ key: z.string().max(64).optional(), value: z.string().max(256).optional() })).max(16).optional(),
});
/** `v1ExportSecretsIntent`. */
export const ZExportSecretsIntentSchema = z.object({
  secrets: z.array(ZExportSecretParamsSchema).min(1, 'must name at least one secret').max(MAX_SECRETS_PER_REQUEST, `must have at most ${MAX_SECRETS_PER_REQUEST} entries`),
});
export type TExportSecretsIntent = z.output<typeof ZExportSecretsIntentSchema>;
/** `v1ExportSecretsResult`: one export bundle per param, in order. */
export interface TExportSecretsResult extends Record<string, unknown> {
  secretPayloads: string[];
}

/** `v1DeleteSecretsIntent`: 1..32 distinct ids, all of the organization. */
export const ZDeleteSecretsIntentSchema = z.object({
  secretIds: z
    .array(ZIdentifierSchema)
    .min(1, 'must name at least one secret')
    .max(MAX_SECRETS_PER_REQUEST, `must have at most ${MAX_SECRETS_PER_REQUEST} entries`)
    .superRefine((ids, ctx) => {
      const seen = new Set<string>();
      ids.forEach((id, i) => {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [i], message: `${id} is listed twice` });
        seen.add(id);
      });
    }),
});
export type TDeleteSecretsIntent = z.output<typeof ZDeleteSecretsIntentSchema>;
/** `v1DeleteSecretsResult`: the ids in the order requested. */
export interface TDeleteSecretsResult extends Record<string, unknown> {
  secretIds: string[];
}

/** `v1ListSecretsRequest`. */
export const ZListSecretsRequestSchema = z.object({ organizationId: ZIdentifierSchema, paginationOptions: ZPaginationOptionsSchema.optional() });
export type TListSecretsRequest = z.output<typeof ZListSecretsRequestSchema>;

/** `v1SecretMetadata`: `createdAtUnixMs` in milliseconds since the epoch, as a string. */
export interface TSecretMetadataWire {
  secretId: string;
  name?: string;
  staticProperties: { key: string; value: string }[];
  createdAtUnixMs: string;
}

/** Wire names of `init_import_secrets`. */
export const INIT_IMPORT_SECRETS_ACTIVITY = defineActivityWire('init_import_secrets', [
  { type: 'ACTIVITY_TYPE_INIT_IMPORT_SECRETS', intentKey: 'initImportSecretsIntent', resultKey: 'initImportSecretsResult' },
]);
/** Wire names of `import_secrets`. */
export const IMPORT_SECRETS_ACTIVITY = defineActivityWire('import_secrets', [
  { type: 'ACTIVITY_TYPE_IMPORT_SECRETS', intentKey: 'importSecretsIntent', resultKey: 'importSecretsResult' },
]);
/** Wire names of `export_secrets`. */
export const EXPORT_SECRETS_ACTIVITY = defineActivityWire('export_secrets', [
  { type: 'ACTIVITY_TYPE_EXPORT_SECRETS', intentKey: 'exportSecretsIntent', resultKey: 'exportSecretsResult' },
]);
/** Wire names of `delete_secrets`. */
export const DELETE_SECRETS_ACTIVITY = defineActivityWire('delete_secrets', [
  { type: 'ACTIVITY_TYPE_DELETE_SECRETS', intentKey: 'deleteSecretsIntent', resultKey: 'deleteSecretsResult' },
]);
