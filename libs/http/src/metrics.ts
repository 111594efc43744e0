/**
 * Prometheus metrics every Latchkey app serves on its own port at `GET /metrics`: one registry
 * per process (prom-client), the process' default metrics, and the request histogram the HTTP
 * server fills. Apps add their own series (activities, pool, outbox, webhooks, cache) through
 * `counter` / `gauge`; a gauge that needs the database reads it in its `collect`, i.e. once per
 * scrape, never on a request.
 *
 * Labels are bounded by construction: the route label is the route *pattern* fastify matched
 * (`/public/v1/query/:name`), `unmatched` for a 404, never the raw URL; no label ever carries an
 * organization, user, key or address. Who may scrape: see `metricsAccess`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '@latchkey/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type CounterConfiguration, type GaugeConfiguration } from 'prom-client';

/** Seconds: from a warm whoami (sub-millisecond) to a slow derivation or a stalled database. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface TMetricsOptions {
  /** Becomes the `service` label of every series (public-api, auth-proxy, admin, webhook-worker). */
  service: string;
  /** The bearer token `/metrics` asks for (LATCHKEY_METRICS_TOKEN); absent: loopback clients only. */
  token?: string | undefined;
}

export interface TMetrics {
  registry: Registry;
  /** A counter registered in this process' registry. */
  counter<L extends string>(c: Omit<CounterConfiguration<L>, 'registers'>): Counter<L>;
  /** A gauge registered in this process' registry (give it `collect` to read a value on scrape). */
  gauge<L extends string>(c: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L>;
  /** Records one answered request (the HTTP server's onResponse hook calls it). */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void;
  token: string | undefined;
}

/** Creates the process' registry with the default process metrics and the request histogram. */
export function createMetrics(o: TMetricsOptions): TMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: o.service });
  collectDefaultMetrics({ register: registry, prefix: 'latchkey_' });
  const requests = new Histogram({
    name: 'latchkey_http_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by method, route pattern and status (its _count is the request count)',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  // One child per (method, route, status), found by a string key: prom-client's own label lookup
  // hashes a sorted label object on every call, which the hot path need not pay.
  const children = new Map<string, ReturnType<typeof requests.labels>>();
  return {
    registry,
    token: o.token,
    counter: (c) => new Counter({ ...c, registers: [registry] }),
    gauge: (c) => new Gauge({ ...c, registers: [registry] }),
    observeRequest(method, route, status, seconds) {
      const r = route ?? 'unmatched';
      const key = `${method} ${r} ${status}`;
      let child = children.get(key);
      if (!child) {
        child = requests.labels(method, r, String(status));
        children.set(key, child);
      }
      child.observe(seconds);
    },
  };
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Who may read `/metrics`. With a token: any client presenting `Authorization: Bearer <token>`
 * (compared in constant time). Without one: only a client on the loopback interface, judged by
 * the socket peer and never by X-Forwarded-For — the public API listens where the internet
 * reaches it, and request counts by activity type are not for strangers. Nothing secret is in
 * the series either way.
 * @throws AppError UNAUTHENTICATED (token configured, missing or wrong), REQUEST_NOT_AUTHORIZED (no token, not loopback)
 */
export function assertMayScrape(req: FastifyRequest, token: string | undefined): void {
  if (token !== undefined) {
    const given = req.headers.authorization ?? '';
    const m = /^Bearer (.+)$/.exec(given);
    if (!m || !timingSafeEqual(digest(m[1]!), digest(token))) {
      throw new AppError('UNAUTHENTICATED', 'metrics need the header Authorization: Bearer <LATCHKEY_METRICS_TOKEN>', { field: 'authorization' });
    }
    return;
  }
  const peer = req.socket.remoteAddress ?? '';
  if (!LOOPBACK.test(peer)) {
    throw new AppError('REQUEST_NOT_AUTHORIZED', 'metrics are served to loopback clients only; set LATCHKEY_METRICS_TOKEN to scrape from another host');
  }
}

/**
 * Installs the request histogram (an onResponse hook: a map lookup and an observe per request)
 * and `GET /metrics` in the Prometheus text format.
 */
export function registerMetrics(app: FastifyInstance, metrics: TMetrics): void {
  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done) => {
    metrics.observeRequest(req.method, req.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get('/metrics', async (req, reply) => {
    assertMayScrape(req, metrics.token);
    const body = await metrics.registry.metrics();
    return reply.header('content-type', metrics.registry.contentType).send(body);
  });
}
