/**
 * The OpenAPI 3.1 document of the public API, generated from what the engine serves: one
 * operation per registered activity kind (`POST /public/v1/submit/<path>`) and per query
 * (`POST /public/v1/query/<path>`), walked from the same lists the engine dispatches on
 * (ACTIVITY_DEFINITIONS, VOTE_DEFINITIONS, QUERY_DEFINITIONS), their request bodies converted
 * from the kinds' `@latchkey/domain` zod schemas by zod's own `z.toJSONSchema` (JSON Schema
 * 2020-12, OpenAPI 3.1's dialect). The app adds the routes it serves itself (`/healthz`,
 * discovery documents…) as `extraRoutes`, and checks the whole against its route table at start.
 *
 * Component names follow `@turnkey/sdk-types` (`v1CreateWalletRequest`, `v1CreateWalletIntent`),
 * so a reader can hold the two side by side. Query responses have no zod schema in the domain
 * (they are serialisers' output): they are documented as objects naming their Turnkey type.
 */
import { ZActivityRequestSchema, ZActivityResponseSchema, ZTimestampMsSchema } from '@latchkey/domain';
import { z } from 'zod';
import { VOTE_DEFINITIONS, ACTIVITY_DEFINITIONS } from '../registry.js';
import { QUERY_DEFINITIONS } from '../queries/registry.js';
import type { TAnyQueryDefinition } from '../queries/query-definition.js';
import type { TActivityWire } from '@latchkey/domain';

/** A route the app serves besides the engine's, as the document describes it. */
export interface TOpenApiExtraRoute {
  method: 'get' | 'post';
  path: string;
  summary: string;
  tag: string;
  /** The 200 body's content type and JSON Schema (default: application/json, any object). */
  response?: { contentType: string; schema: Record<string, unknown> };
  /** No stamp needed (probes, discovery documents). */
  public?: boolean;
}

export interface TOpenApiOptions {
  version: string;
  /** The public API's base URL, listed as the document's server (TConfig.publicUrl). */
  serverUrl?: string;
  extraRoutes?: readonly TOpenApiExtraRoute[];
  /** Defaults: the engine's own lists. */
  activities?: readonly TActivityWire[];
  queries?: readonly TAnyQueryDefinition[];
}

type TJsonObject = Record<string, unknown>;

export const SUBMIT_PREFIX = '/public/v1/submit/';
export const QUERY_PREFIX = '/public/v1/query/';

const pascal = (s: string) => s.replace(/(^|[_-])([a-z0-9])/g, (_m, _sep: string, c: string) => c.toUpperCase());
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `rpcStatus`: the body of every error, written by the one error handler. */
const ZRpcStatusSchema = z.object({
  code: z.number().int().meta({ description: 'gRPC status code' }),
  message: z.string(),
  details: z.array(z.looseObject({ '@type': z.string(), turnkeyErrorCode: z.string().optional(), latchkeyErrorCode: z.string().optional(), fields: z.record(z.string(), z.unknown()).optional() })),
});

const REF = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * Removes what a schema embedded in the document must not carry: its own `$schema` (the
 * document's dialect is 2020-12 already) and the `$id` zod derives from `uri` (a fragment-only
 * `$id` is invalid in 2020-12; the component's place in the document is its identity).
 */
function embeddable(s: unknown): TJsonObject {
  const { $schema: _schema, $id: _id, ...rest } = s as TJsonObject;
  return rest;
}

/**
 * The document's operations as path → methods, without building its schemas (their JSON Schema
 * export is most of the document's cost): what the public API compares with its routes at start,
 * while the document itself is built on its first request. The same lists as
 * `buildOpenApiDocument`'s paths, in the same way (the spec compares the two).
 */
export function openApiOperations(o: Pick<TOpenApiOptions, 'activities' | 'queries' | 'extraRoutes'>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (path: string, method: string) => (out[path] ??= []).push(method);
  for (const a of o.activities ?? [...ACTIVITY_DEFINITIONS, ...VOTE_DEFINITIONS]) add(`${SUBMIT_PREFIX}${a.path}`, 'post');
  for (const q of o.queries ?? QUERY_DEFINITIONS) add(`${QUERY_PREFIX}${q.path}`, 'post');
  for (const r of o.extraRoutes ?? []) add(r.path, r.method);
  return out;
}

/**
 * Builds the document. Pure and deterministic: the app builds it once, on its first request.
 * @throws Error when two operations would share a component name (a programming error)
 */
export function buildOpenApiDocument(o: TOpenApiOptions): TJsonObject {
  const activities = o.activities ?? [...ACTIVITY_DEFINITIONS, ...VOTE_DEFINITIONS];
  const queries = o.queries ?? QUERY_DEFINITIONS;
  const requests = z.registry<{ id: string }>();
  const paths: Record<string, TJsonObject> = {};
  const names = new Set<string>();
  /** Registers `schema` under `id` (or finds the name it already has) and returns its name. */
  const nameOf = (schema: z.ZodType, id: string): string => {
    const existing = requests.get(schema)?.id;
    if (existing) return existing;
    if (names.has(id)) throw new Error(`two schemas named ${id} in the OpenAPI document`);
    names.add(id);
    requests.add(schema, { id });
    return id;
  };
  const errorResponse = { description: 'An error: `{code, message, details}`; the details name the failing field', content: { 'application/json': { schema: REF('rpcStatus') } } };
  const stamped = [{ ApiKeyStamp: [] }, { WebAuthnStamp: [] }];

  for (const a of activities) {
    const params = (a as { params?: z.ZodType }).params;
    if (!params) throw new Error(`activity ${a.path} has no parameter schema`);
    const last = a.versions[a.versions.length - 1]!;
    nameOf(params, `v1${upperFirst(last.intentKey)}`);
    const envelope = ZActivityRequestSchema.extend({
      type: z.enum(a.versions.map((v) => v.type) as [string, ...string[]]),
      timestampMs: ZTimestampMsSchema,
      parameters: params,
    });
    const requestName = nameOf(envelope, `v1${pascal(a.path)}Request`);
    paths[`${SUBMIT_PREFIX}${a.path}`] = {
      post: {
        operationId: `submit_${a.path}`,
        tags: ['Activities'],
        summary: `Submit ${a.versions.map((v) => v.type).join(' / ')}`,
        requestBody: { required: true, content: { 'application/json': { schema: REF(requestName) } } },
        responses: { '200': { description: 'The activity (COMPLETED, FAILED, or waiting in CONSENSUS_NEEDED)', content: { 'application/json': { schema: REF('v1ActivityResponse') } } }, default: errorResponse },
        security: stamped,
      },
    };
  }
  for (const q of queries) {
    const requestName = nameOf(q.request, `v1${pascal(q.path)}Request`);
    paths[`${QUERY_PREFIX}${q.path}`] = {
      post: {
        operationId: `query_${q.path}`,
        tags: ['Queries'],
        summary: `Query ${q.path}`,
        requestBody: { required: true, content: { 'application/json': { schema: REF(requestName) } } },
        responses: {
          '200': { description: `The answer (\`v1${pascal(q.path)}Response\` of @turnkey/sdk-types)`, content: { 'application/json': { schema: { type: 'object', 'x-turnkey-type': `v1${pascal(q.path)}Response` } } } },
          default: errorResponse,
        },
        security: stamped,
      },
    };
  }
  for (const r of o.extraRoutes ?? []) {
    const response = r.response ?? { contentType: 'application/json', schema: { type: 'object' } };
    const op: TJsonObject = {
      operationId: `${r.method}_${r.path.replace(/[^a-zA-Z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
      tags: [r.tag],
      summary: r.summary,
      responses: { '200': { description: 'OK', content: { [response.contentType]: { schema: response.schema } } }, default: errorResponse },
      ...(r.public ? { security: [] } : {}),
    };
    const entry = (paths[r.path] ??= {});
    if (entry[r.method]) throw new Error(`two operations for ${r.method.toUpperCase()} ${r.path} in the OpenAPI document`);
    entry[r.method] = op;
  }

  const requestSchemas = z.toJSONSchema(requests, { io: 'input', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` });
  const responses = z.registry<{ id: string }>();
  responses.add(ZActivityResponseSchema, { id: 'v1ActivityResponse' });
  responses.add(ZRpcStatusSchema, { id: 'rpcStatus' });
  const responseSchemas = z.toJSONSchema(responses, { io: 'output', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` });
  const schemas: Record<string, TJsonObject> = {};
  for (const [id, s] of [...Object.entries(requestSchemas.schemas), ...Object.entries(responseSchemas.schemas)]) {
    if (schemas[id]) throw new Error(`two schemas named ${id} in the OpenAPI document`);
    schemas[id] = embeddable(s);
  }
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Latchkey public API',
      version: o.version,
      description: 'Turnkey-wire-compatible. Every /public/v1 request is stamped over its exact body bytes (X-Stamp, or X-Stamp-WebAuthn).',
    },
    ...(o.serverUrl ? { servers: [{ url: o.serverUrl }] } : {}),
    paths: sortedPaths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        ApiKeyStamp: { type: 'apiKey', in: 'header', name: 'X-Stamp', description: 'base64url JSON {publicKey, scheme, signature} over the raw body' },
        WebAuthnStamp: { type: 'apiKey', in: 'header', name: 'X-Stamp-WebAuthn', description: 'a WebAuthn assertion over the raw body' },
      },
    },
  };
}
