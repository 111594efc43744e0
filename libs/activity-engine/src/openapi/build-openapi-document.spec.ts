/**
 * The generated OpenAPI document covers exactly what the engine dispatches on, every request body
 * converts from its zod schema, and every `$ref` resolves inside the document.
 */
import { describe, expect, it } from 'vitest';
import { ACTIVITY_DEFINITIONS, VOTE_DEFINITIONS } from '../registry.js';
import { QUERY_DEFINITIONS } from '../queries/registry.js';
import { buildOpenApiDocument, openApiOperations, QUERY_PREFIX, SUBMIT_PREFIX } from './build-openapi-document.js';

type TDoc = { openapi: string; paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { $ref?: string } }> } }>>; components: { schemas: Record<string, Record<string, unknown>> } };
const doc = buildOpenApiDocument({ version: '9.9.9', extraRoutes: [{ method: 'get', path: '/healthz', summary: 'alive', tag: 'Operations', public: true }] }) as unknown as TDoc;

function refsIn(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) refsIn(x, out);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) (k === '$ref' && typeof x === 'string' ? out.push(x) : refsIn(x, out));
  return out;
}

describe('buildOpenApiDocument', () => {
  it('has one operation per registered activity, vote and query, and the extra routes, nothing else', () => {
    const expected = [
      ...[...ACTIVITY_DEFINITIONS, ...VOTE_DEFINITIONS].map((d) => `${SUBMIT_PREFIX}${d.path}`),
      ...QUERY_DEFINITIONS.map((q) => `${QUERY_PREFIX}${q.path}`),
      '/healthz',
    ].sort();
    expect(Object.keys(doc.paths).sort()).toEqual(expected);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('lists the same operations as openApiOperations, which builds no schema', () => {
    const extraRoutes = [
      { method: 'get' as const, path: '/healthz', summary: 'alive', tag: 'Operations', public: true },
      { method: 'post' as const, path: '/healthz', summary: 'also', tag: 'Operations', public: true },
    ];
    const full = buildOpenApiDocument({ version: '1', extraRoutes }) as unknown as TDoc;
    const fromDocument = Object.fromEntries(Object.entries(full.paths).map(([path, item]) => [path, Object.keys(item).sort()]));
    const listed = Object.fromEntries(Object.entries(openApiOperations({ extraRoutes })).map(([path, methods]) => [path, [...methods].sort()]));
    expect(listed).toEqual(fromDocument);
    expect(listed['/healthz']).toEqual(['get', 'post']);
  });

  it('describes a submission with its envelope and the kind’s own intent, from the domain schema', () => {
    const op = doc.paths[`${SUBMIT_PREFIX}set_ip_allowlist`]!['post']!;
    const name = op.requestBody!.content['application/json']!.schema.$ref!.split('/').pop()!;
    expect(name).toBe('v1SetIpAllowlistRequest');
    const envelope = doc.components.schemas[name] as { properties: Record<string, { enum?: string[]; $ref?: string }>; required: string[] };
    expect(envelope.properties['type']!.enum).toEqual(['ACTIVITY_TYPE_SET_IP_ALLOWLIST']);
    expect(envelope.required).toEqual(expect.arrayContaining(['type', 'timestampMs', 'organizationId', 'parameters']));
    expect(envelope.properties['parameters']!.$ref).toBe('#/components/schemas/v1SetIpAllowlistIntent');
    const intent = doc.components.schemas['v1SetIpAllowlistIntent'] as { properties: Record<string, { maxItems?: number }> };
    expect(intent.properties['rules']!.maxItems).toBe(100);
  });

  it('resolves every $ref inside the document', () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(100);
    for (const r of refs) {
      expect(r).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas[r.slice('#/components/schemas/'.length)], r).toBeDefined();
    }
  });

  it('refuses two extra routes for the same operation', () => {
    const twice = { method: 'get' as const, path: '/x', summary: 'x', tag: 't' };
    expect(() => buildOpenApiDocument({ version: '1', extraRoutes: [twice, twice] })).toThrow(/two operations for GET \/x/);
  });
});
