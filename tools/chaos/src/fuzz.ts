/**
 * R1 fuzz (issue 17): CHAOS_FUZZ_REQUESTS (default 10,000) requests over every public route, each
 * generated from the route's zod schema (fast-check) and then mutated (support/mutate.ts) until
 * the schema — or the one string rule (no U+0000, no lone surrogate) — refuses it. Nine in ten are
 * validly stamped with the root key, so they get past authentication to validation; the rest
 * carry no stamp, a garbage stamp, a stranger's key, two stamps or the wrong content type.
 *
 * Expected: no 5xx and no request left unanswered; the public API never restarted; the row counts
 * of every table unchanged, except activities recorded as FAILED (and their outbox events and
 * policy evaluations). Any 2xx to a refused body is reported as a finding. Failing inputs are
 * written to CHAOS_OUT_DIR with the seed (CHAOS_SEED replays a run).
 */
import fc from 'fast-check';
import { arbitraryOf } from './support/arbitraries.js';
import { createRandom, hasUnstorableString, mutate, type TRandom } from './support/mutate.js';
import { activityStatusCounts, appPids, generateApiKeyPair, createStamper, rowCounts, withTarget, type TTarget } from './support/platform.js';
import { intFromEnv, log, saveArtifact, since, type TProofResult } from './support/report.js';
import { OTHER_GET_URLS, OTHER_POST_URLS, publicRoutes, type TRoute } from './support/routes.js';

/**
 * Tables that may grow with FAILED activities: the activity's own event, policy evaluations, and
 * its audit link (with, for an organization's first, its chain head).
 */
const FOLLOWS_FAILED = new Set(['outbox_events', 'policy_evaluations', 'audit_log_entries', 'audit_chain_heads']);

type TCredentialCase = 'root' | 'no-stamp' | 'garbage-stamp' | 'stranger-key' | 'two-stamps' | 'text-plain';
const UNSTAMPED_CASES: readonly TCredentialCase[] = ['no-stamp', 'garbage-stamp', 'stranger-key', 'two-stamps', 'text-plain'];

interface TFuzzCase {
  index: number;
  url: string;
  route?: TRoute;
  credential: TCredentialCase;
  mutations: string[];
  bytes: Buffer;
}

/** Whether the server's own rules would accept `bytes` for `route` (then it is mutated again). */
function locallyValid(route: TRoute, bytes: Buffer): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return false;
  }
  try {
    return !hasUnstorableString(parsed) && route.body.safeParse(parsed).success;
  } catch {
    return false; // too deep for zod's recursion: refused, and the server must not fall over either
  }
}

/** Generated values per route, sampled in one batch per route (fast-check's set-up is per call). */
const samples = new Map<TRoute, unknown[]>();
const SAMPLES_PER_ROUTE = 64;

function wellFormed(route: TRoute, organizationId: string, index: number, seed: number, rnd: TRandom): unknown {
  let batch = samples.get(route);
  if (!batch) samples.set(route, (batch = fc.sample(arbitraryOf(route.generated), { numRuns: SAMPLES_PER_ROUTE, seed })));
  const generated = structuredClone(batch[Math.floor(rnd() * batch.length)]);
  if (route.kind === 'submit') {
    return { type: route.types[Math.floor(rnd() * route.types.length)], timestampMs: String(Date.now()), organizationId, parameters: generated ?? {} };
  }
  return generated !== null && typeof generated === 'object' && !Array.isArray(generated) ? { ...generated, organizationId } : { organizationId };
}

export function buildCase(t: TTarget, routes: readonly TRoute[], index: number, seed: number): TFuzzCase {
  const rnd = createRandom(seed ^ Math.imul(index + 1, 0x9e3779b1));
  const credential: TCredentialCase = rnd() < 0.9 ? 'root' : UNSTAMPED_CASES[Math.floor(rnd() * UNSTAMPED_CASES.length)]!;
  // One request in 50 goes to a path no registry lists (unknown names, the internal route).
  if (index % 50 === 49) {
    const url = OTHER_POST_URLS[Math.floor(rnd() * OTHER_POST_URLS.length)]!;
    const m = mutate({ organizationId: t.organizationId, type: 'ACTIVITY_TYPE_CREATE_WALLET', timestampMs: String(Date.now()), parameters: {} }, rnd);
    return { index, url, credential, mutations: m.mutations, bytes: m.bytes };
  }
  // Every route in turn; the unlisted paths take every 50th request without skipping a route.
  const route = routes[(index - Math.floor((index + 1) / 50)) % routes.length]!;
  const tree = wellFormed(route, t.organizationId, index, seed, rnd);
  let m = mutate(tree, rnd);
  const mutations = [...m.mutations];
  for (let tries = 0; locallyValid(route, m.bytes) && tries < 5; tries++) {
    m = mutate(tree, rnd);
    mutations.push('|', ...m.mutations);
  }
  if (locallyValid(route, m.bytes)) {
    // Still accepted after five tries (only optional fields were touched): break the body's type.
    m = { mutations: ['forced:parameters-not-an-object'], bytes: Buffer.from(JSON.stringify(route.kind === 'submit' ? { ...(tree as object), parameters: [] } : [tree])), parsable: true };
    mutations.push(...m.mutations);
  }
  return { index, url: route.url, route, credential, mutations, bytes: m.bytes };
}

function headersFor(t: TTarget, c: TFuzzCase): Record<string, string> {
  switch (c.credential) {
    case 'root':
      return { 'X-Stamp': t.rootStamper.stamp(c.bytes) };
    case 'no-stamp':
      return {};
    case 'garbage-stamp':
      return { 'X-Stamp': Buffer.from(c.bytes.subarray(0, 200)).toString('base64url') || 'e30' };
    case 'stranger-key':
      return { 'X-Stamp': createStamper(generateApiKeyPair()).stamp(c.bytes) };
    case 'two-stamps':
      return { 'X-Stamp': t.rootStamper.stamp(c.bytes), 'X-Stamp-Webauthn': '{"credentialId":"x","authenticatorData":"x","clientDataJson":"x","signature":"x"}' };
    case 'text-plain':
      return { 'X-Stamp': t.rootStamper.stamp(c.bytes), 'content-type': 'text/plain' };
  }
}

export async function runFuzz(): Promise<TProofResult> {
  const t0 = Date.now();
  const total = intFromEnv('CHAOS_FUZZ_REQUESTS', 10_000);
  const concurrency = intFromEnv('CHAOS_FUZZ_CONCURRENCY', 8);
  const seed = process.env['CHAOS_SEED'] ? intFromEnv('CHAOS_SEED', 1) : Math.floor(Math.random() * 2 ** 31);
  const failures: string[] = [];
  let summary = '';
  await withTarget({}, async (t) => {
    const routes = publicRoutes();
    log(`R1 fuzz: ${total} requests over ${routes.length} routes (+${OTHER_POST_URLS.length} unlisted paths), seed ${seed} (CHAOS_SEED=${seed} replays), ${concurrency} in flight`);
    const pidsBefore = await appPids(t.latchkey.dataDir);
    const rowsBefore = await rowCounts(t.db);
    const statusBefore = await activityStatusCounts(t.db);
    const byClass = new Map<string, number>();
    const accepted: string[] = [];
    const routesHit = new Set<string>();
    let next = 0;
    let saved = 0;
    const tSend = Date.now();
    const worker = async () => {
      while (next < total) {
        const i = next++;
        const c = buildCase(t, routes, i, seed);
        const a = await t.http.post(c.url, c.bytes, headersFor(t, c));
        routesHit.add(c.url);
        const cls = a.status === 0 ? 'no answer' : `${Math.floor(a.status / 100)}xx`;
        if (a.status !== 0 || c.bytes.length <= 1024 * 1024) byClass.set(cls, (byClass.get(cls) ?? 0) + 1);
        const what = `#${i} POST ${c.url} [${c.credential}; ${c.mutations.join(' ')}; ${c.bytes.length} bytes]`;
        // A body over the 1 MiB limit may be answered 413 and the socket closed while it is sent.
        const closedOverLimit = a.status === 0 && c.bytes.length > 1024 * 1024 && /^(EPIPE|ECONNRESET)$/.test(a.error ?? '');
        if (closedOverLimit) byClass.set('closed (over the body limit)', (byClass.get('closed (over the body limit)') ?? 0) + 1);
        else if (a.status === 0 || a.status >= 500) {
          const file = saved++ < 50 ? saveArtifact(`fuzz-${seed}-${i}.body`, c.bytes) : '(not saved: over 50)';
          failures.push(`${what} → ${a.status || a.error}: ${a.text.slice(0, 200)} (body: ${file})`);
        } else if (a.status < 300 && c.credential === 'root' && c.route) {
          accepted.push(`${what} → ${a.status}: ${a.text.slice(0, 160)}`);
        }
        if ((i + 1) % 2000 === 0) log(`  ${i + 1}/${total} sent, ${[...byClass].map(([k, v]) => `${k} ${v}`).join(', ')}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const sendSeconds = since(tSend);
    for (const url of OTHER_GET_URLS) {
      const a = await t.http.get(url);
      if (a.status === 0 || a.status >= 500) failures.push(`GET ${url} → ${a.status || a.error}: ${a.text.slice(0, 200)}`);
    }

    // Row counts: unchanged, except FAILED activities and what follows them.
    await new Promise((r) => setTimeout(r, 1_000));
    const rowsAfter = await rowCounts(t.db);
    const statusAfter = await activityStatusCounts(t.db);
    const failedDelta = (statusAfter['ACTIVITY_STATUS_FAILED'] ?? 0) - (statusBefore['ACTIVITY_STATUS_FAILED'] ?? 0);
    for (const s of new Set([...Object.keys(statusBefore), ...Object.keys(statusAfter)])) {
      if (s !== 'ACTIVITY_STATUS_FAILED' && (statusAfter[s] ?? 0) !== (statusBefore[s] ?? 0)) failures.push(`activities in ${s}: ${statusBefore[s] ?? 0} → ${statusAfter[s] ?? 0} (only FAILED may change)`);
    }
    for (const table of new Set([...Object.keys(rowsBefore), ...Object.keys(rowsAfter)])) {
      const d = (rowsAfter[table] ?? 0) - (rowsBefore[table] ?? 0);
      if (d === 0 || table === 'activities') continue;
      if (FOLLOWS_FAILED.has(table) && d > 0 && d <= failedDelta) continue;
      failures.push(`table ${table}: ${rowsBefore[table] ?? 0} → ${rowsAfter[table] ?? 0} rows (${failedDelta} new FAILED activities)`);
    }
    const pidsAfter = await appPids(t.latchkey.dataDir);
    if (pidsAfter['public-api'] !== pidsBefore['public-api']) failures.push(`the public API process changed (${pidsBefore['public-api']} → ${pidsAfter['public-api']}): it crashed and was restarted`);
    const health = await t.http.get('/healthz');
    if (health.status !== 200) failures.push(`/healthz after the fuzz: ${health.status}`);
    const missingRoutes = routes.filter((r) => !routesHit.has(r.url)).map((r) => r.name);
    if (missingRoutes.length > 0) failures.push(`routes never fuzzed: ${missingRoutes.join(', ')}`);
    if (accepted.length > 0) log(`  note: ${accepted.length} refused-by-schema bodies were answered 2xx (first: ${accepted[0]})`);
    summary = `${total} requests, ${routes.length} routes, ${[...byClass].sort().map(([k, v]) => `${k} ${v}`).join(', ')}; ${failedDelta} FAILED activities; sent in ${sendSeconds} s (${Math.round(total / sendSeconds)}/s); seed ${seed}`;
  });
  return { id: 'R1', title: 'fuzz', ok: failures.length === 0, seconds: since(t0), summary, failures };
}
