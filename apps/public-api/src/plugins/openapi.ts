/**
 * `GET /openapi.json`: the OpenAPI 3.1 document of this server, built from the engine's lists and
 * the domain's zod schemas (@latchkey/activity-engine buildOpenApiDocument), plus the routes this
 * app serves itself, declared below. When the server becomes ready the document's operations
 * (`openApiOperations`, the same lists without the schemas) are checked against fastify's route
 * table — every route has a path, every path is a route — and a mismatch stops the start (a
 * programming error every test run catches), so the document cannot drift from what is served.
 * The document itself is built on its first request and kept: its schemas' JSON Schema export
 * took ~0.1 s of every start.
 */
import { AUTH_PROXY_INTERNAL_PATH } from '@latchkey/domain';
import { buildOpenApiDocument, openApiOperations, type TOpenApiExtraRoute } from '@latchkey/activity-engine';
import { OIDC_DISCOVERY_PATH, OIDC_JWKS_PATH } from '@latchkey/platform';
import type { FastifyInstance } from 'fastify';
import { WEBHOOK_JWKS_PATH } from '../routes/webhooks-jwks.js';

export const OPENAPI_PATH = '/openapi.json';
/** The document's `info.version`: the version of the wire it describes (Turnkey's public v1 API), not of a build. */
export const OPENAPI_API_VERSION = '1.0';

const ops = (tag: string) => (method: 'get' | 'post', path: string, summary: string, more: Partial<TOpenApiExtraRoute> = {}): TOpenApiExtraRoute => ({ method, path, summary, tag, public: true, ...more });
const operations = ops('Operations');
const discovery = ops('Discovery');

/** The routes of this app besides the engine's, by what is registered (see buildPublicApi). */
export function publicApiExtraRoutes(o: { metrics: boolean; webhookKeys: boolean; authProxyRuntime: boolean }): TOpenApiExtraRoute[] {
  return [
    operations('get', '/healthz', 'Alive: the process answers and its database answers a ping'),
    operations('get', '/readyz', 'Ready to serve: the database answers and holds exactly this build’s migrations (503 naming the reason otherwise)'),
    operations('get', OPENAPI_PATH, 'This document'),
    ...(o.metrics
      ? [operations('get', '/metrics', 'Prometheus metrics (Authorization: Bearer LATCHKEY_METRICS_TOKEN, or loopback clients only when unset)', { response: { contentType: 'text/plain', schema: { type: 'string' } }, public: false })]
      : []),
    discovery('get', '/.well-known/latchkey.json', 'The server keys Turnkey clients pin (signer, notarizer, OTP verifier)'),
    discovery('get', OIDC_DISCOVERY_PATH, 'OpenID Connect discovery of the tokens oauth2_authenticate issues'),
    discovery('get', OIDC_JWKS_PATH, 'The keys those tokens are signed with'),
    ...(o.webhookKeys ? [discovery('get', WEBHOOK_JWKS_PATH, 'The keys webhook deliveries are signed with')] : []),
    ...(o.authProxyRuntime ? [ops('Internal')('post', AUTH_PROXY_INTERNAL_PATH, 'The auth proxy process reads its configs (internal; stamped by the proxy)', { public: false })] : []),
  ];
}

/** Methods a route answers that the document does not list: HEAD comes with GET, OPTIONS is CORS. */
const IMPLIED_METHODS = new Set(['HEAD', 'OPTIONS']);

/**
 * fastify's route table as (method, pattern) pairs, read from `printRoutes` (fastify has no
 * other public listing), e.g. `POST /public/v1/query/:name`.
 */
export function registeredRoutes(app: FastifyInstance): Array<{ method: string; pattern: string }> {
  const out: Array<{ method: string; pattern: string }> = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /(\/\S*) \(([A-Z, ]+)\)\s*$/.exec(line);
    if (!m) continue;
    for (const method of m[2]!.split(',').map((s) => s.trim())) if (!IMPLIED_METHODS.has(method)) out.push({ method, pattern: m[1]! });
  }
  return out;
}

const patternRegex = (p: string) => new RegExp(`^${p.split('/').map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`);

/**
 * Compares the document's operations (path → methods, as `openApiOperations` lists them) with a route table.
 * @throws Error listing the routes without a documented path and the documented paths no route serves
 */
export function assertDocumentMatchesRoutes(operations: Record<string, readonly string[]>, routes: ReadonlyArray<{ method: string; pattern: string }>): void {
  const documented = Object.entries(operations).flatMap(([path, methods]) => methods.map((m) => ({ method: m.toUpperCase(), path })));
  const compiled = routes.map((r) => ({ ...r, re: patternRegex(r.pattern) }));
  const undocumented = compiled.filter((r) => !documented.some((d) => d.method === r.method && r.re.test(d.path))).map((r) => `${r.method} ${r.pattern}`);
  const unserved = documented.filter((d) => !compiled.some((r) => r.method === d.method && r.re.test(d.path))).map((d) => `${d.method} ${d.path}`);
  if (undocumented.length > 0 || unserved.length > 0) {
    throw new Error(
      `the OpenAPI document and the routes disagree: ${[
        undocumented.length > 0 ? `routes without a documented path: ${undocumented.join(', ')} (add them to publicApiExtraRoutes)` : '',
        unserved.length > 0 ? `documented paths no route serves: ${unserved.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; ')}`,
    );
  }
}

/** Serves the document and checks its operations against the route table when the server becomes ready. */
export function registerOpenApi(app: FastifyInstance, o: { serverUrl: string; extraRoutes: TOpenApiExtraRoute[] }): void {
  let body: string | undefined;
  const document = () => (body ??= JSON.stringify(buildOpenApiDocument({ ...o, version: OPENAPI_API_VERSION })));
  app.get(OPENAPI_PATH, async (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(document()));
  const operations = openApiOperations(o);
  app.addHook('onReady', async () => assertDocumentMatchesRoutes(operations, registeredRoutes(app)));
}
