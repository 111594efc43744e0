/**
 * The start-time check that keeps /openapi.json and the route table together: a route nobody
 * documented, or a documented path nobody serves, stops the server from becoming ready.
 */
import { createHttpServer } from '@latchkey/http';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { assertDocumentMatchesRoutes, registeredRoutes, registerOpenApi } from './openapi.js';

const logger = pino({ level: 'silent' });
const probes = [
  { method: 'get' as const, path: '/healthz', summary: 'alive', tag: 'Operations' },
  { method: 'get' as const, path: '/readyz', summary: 'ready', tag: 'Operations' },
  { method: 'get' as const, path: '/openapi.json', summary: 'this', tag: 'Operations' },
];

/** A server with the engine's two routes and the probes, as buildPublicApi registers them. */
function server() {
  const app = createHttpServer({ logger });
  app.post('/public/v1/query/:name', async () => ({}));
  app.post('/public/v1/submit/:name', async () => ({}));
  return app;
}

describe('registeredRoutes', () => {
  it('lists fastify’s routes as method and pattern, without the HEAD that comes with GET', async () => {
    const app = server();
    await app.ready();
    expect(registeredRoutes(app)).toEqual(
      expect.arrayContaining([
        { method: 'GET', pattern: '/healthz' },
        { method: 'POST', pattern: '/public/v1/query/:name' },
      ]),
    );
    expect(registeredRoutes(app).some((r) => r.method === 'HEAD')).toBe(false);
  });
});

describe('the document checked against the routes', () => {
  it('becomes ready when every route has a path and every path a route', async () => {
    const app = server();
    registerOpenApi(app, { serverUrl: 'http://x.invalid', extraRoutes: probes });
    await expect(app.ready()).resolves.toBeDefined();
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toBe('3.1.0');
  });

  it('refuses to become ready with a route the document lacks, naming it', async () => {
    const app = server();
    app.get('/undocumented/:thing', async () => ({}));
    registerOpenApi(app, { serverUrl: 'http://x.invalid', extraRoutes: probes });
    await expect(app.ready()).rejects.toThrow(/routes without a documented path: GET \/undocumented\/:thing/);
  });

  it('refuses a documented path that no route serves, naming it', () => {
    const operations = { '/healthz': ['get'], '/gone': ['post'], '/public/v1/query/whoami': ['post'] };
    const routes = [
      { method: 'GET', pattern: '/healthz' },
      { method: 'POST', pattern: '/public/v1/query/:name' },
    ];
    expect(() => assertDocumentMatchesRoutes(operations, routes)).toThrow(/documented paths no route serves: POST \/gone$/);
    // A parameter matches one segment only, and the method must agree.
    expect(() => assertDocumentMatchesRoutes({ '/public/v1/query/a/b': ['post'] }, routes)).toThrow(/no route serves: POST \/public\/v1\/query\/a\/b/);
    expect(() => assertDocumentMatchesRoutes({ '/healthz': ['post'] }, routes)).toThrow(/no route serves: POST \/healthz/);
  });
});
