/**
 * R3 chaos (issue 17): CHAOS_KILL_SUBMISSIONS (default 1,000) activities submitted by 8 clients —
 * three in four sign_raw_payload (one statement, no transaction), one in four create_private_keys
 * (a transaction writing the key, its addresses and the activity) — while, at fixed points of the
 * run, the public API is killed with SIGKILL, then the webhook worker, then every database
 * connection is terminated (`pg_terminate_backend`), then all three at once. A client retries the
 * identical bytes (same fingerprint: Turnkey's idempotency) until it gets an answer.
 *
 * Expected:
 * - 0 lost acknowledged activities: every activity a client got a 200 for exists, COMPLETED;
 * - every submission acknowledged in the end, and exactly one activity per submission;
 * - 0 partial writes: each activity has its outbox event and a result; each created private key
 *   belongs to a COMPLETED activity and has its addresses; no key without its activity;
 * - the platform up afterwards without a manual restart: the launcher alive, all four apps with a
 *   pid (new ones for those killed), /readyz 200, whoami answers;
 * - every activity's COMPLETED webhook delivered at least once to the receiver.
 */
import { randomBytes } from 'node:crypto';
import { perform } from './support/activities.js';
import { appPids, isAlive, launcherPid, waitUntil, withTarget, type TAppName, type TTarget } from './support/platform.js';
import { intFromEnv, log, since, type TProofResult } from './support/report.js';
import { startWebhookReceiver } from './support/webhook-receiver.js';

interface TSubmission {
  index: number;
  name: 'sign_raw_payload' | 'create_private_keys';
  bytes: string;
  marker: string;
  activityId?: string;
  attempts: number;
  problems: string[];
}

async function killApp(t: TTarget, app: TAppName): Promise<string> {
  const before = await appPids(t.latchkey.dataDir);
  const pid = before[app];
  if (!pid) return `${app}: no pid to kill`;
  process.kill(pid, 'SIGKILL');
  await waitUntil(`${app} is restarted by the launcher`, async () => {
    const now = (await appPids(t.latchkey.dataDir))[app];
    return now !== undefined && now !== pid;
  }, 60_000, 100);
  return `kill -9 ${app} (pid ${pid})`;
}

async function terminateConnections(t: TTarget): Promise<string> {
  const { rows } = await t.db.query<{ n: string }>(
    `SELECT count(*) AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE pid <> pg_backend_pid() AND datname = current_database() AND backend_type = 'client backend') x`,
  );
  return `pg_terminate_backend × ${rows[0]!.n}`;
}

export async function runKillChaos(): Promise<TProofResult> {
  const t0 = Date.now();
  const total = intFromEnv('CHAOS_KILL_SUBMISSIONS', 1_000);
  const concurrency = 8;
  const failures: string[] = [];
  let summary = '';
  const receiver = await startWebhookReceiver();
  try {
    await withTarget({ LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: 'true', LATCHKEY_WEBHOOK_POLL_MS: '200' }, async (t) => {
      const wallet = await perform(t, t.rootStamper, 'create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', {
        walletName: `chaos-kill-${Date.now()}`,
        accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }],
      });
      const signWith = (wallet['addresses'] as string[])[0]!;
      await perform(t, t.rootStamper, 'create_webhook_endpoint', 'ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT', { name: 'chaos-receiver', url: `${receiver.url}/hook`, subscriptions: [{ eventType: 'ACTIVITY_UPDATES' }] });
      const run = randomBytes(4).toString('hex');
      const subs: TSubmission[] = Array.from({ length: total }, (_, index) => {
        const marker = `chaos-${run}-${index}`;
        const name = index % 4 === 3 ? 'create_private_keys' : 'sign_raw_payload';
        const body =
          name === 'sign_raw_payload'
            ? { type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', timestampMs: '', organizationId: t.organizationId, parameters: { signWith, payload: Buffer.from(marker).toString('hex'), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_KECCAK256' } }
            : { type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2', timestampMs: '', organizationId: t.organizationId, parameters: { privateKeys: [{ privateKeyName: marker, curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] }] } };
        return { index, name, bytes: JSON.stringify(body), marker, attempts: 0, problems: [] };
      });

      // The chaos: at these counts of started submissions, in this order.
      const events: [number, () => Promise<string>][] = [
        [Math.floor(total * 0.15), () => killApp(t, 'public-api')],
        [Math.floor(total * 0.35), () => killApp(t, 'webhook-worker')],
        [Math.floor(total * 0.55), () => terminateConnections(t)],
        [Math.floor(total * 0.75), async () => {
          const pids = await appPids(t.latchkey.dataDir);
          for (const app of ['public-api', 'webhook-worker'] as const) if (pids[app]) process.kill(pids[app], 'SIGKILL');
          const terminated = await terminateConnections(t);
          await waitUntil('both apps are restarted', async () => {
            const now = await appPids(t.latchkey.dataDir);
            return !!now['public-api'] && now['public-api'] !== pids['public-api'] && !!now['webhook-worker'] && now['webhook-worker'] !== pids['webhook-worker'];
          }, 60_000);
          return `kill -9 public-api and webhook-worker together, ${terminated}`;
        }],
      ];
      const done: string[] = [];
      let started = 0;
      let acknowledged = 0;
      const tRun = Date.now();
      const chaos = (async () => {
        for (const [at, event] of events) {
          await waitUntil(`${at} submissions started`, () => started >= at || started >= total, 600_000, 20);
          const what = await event().catch((e: Error) => `FAILED: ${e.message}`);
          if (what.startsWith('FAILED')) failures.push(`chaos event at ${at}: ${what}`);
          done.push(what);
          log(`  at ${at}/${total}: ${what}`);
        }
      })();
      const deadlineMs = 120_000;
      const client = async () => {
        while (started < total) {
          const s = subs[started++]!;
          const body = s.bytes.replace('"timestampMs":""', `"timestampMs":"${Date.now()}"`);
          s.bytes = body; // retries send these exact bytes
          const until = Date.now() + deadlineMs;
          while (Date.now() < until) {
            s.attempts++;
            const a = await t.http.post(`/public/v1/submit/${s.name}`, body, { 'X-Stamp': t.rootStamper.stamp(body) });
            if (a.status === 200) {
              const { activity } = JSON.parse(a.text) as { activity: { id: string; status: string } };
              s.activityId = activity.id;
              if (activity.status !== 'ACTIVITY_STATUS_COMPLETED') s.problems.push(`answered ${activity.status}`);
              acknowledged++;
              break;
            }
            // No answer, 503 (database unavailable) or 500 while a connection drops: retry. A
            // 4xx is the client's fault and is not retried.
            if (a.status >= 400 && a.status < 500 && a.status !== 429) {
              s.problems.push(`answered ${a.status}: ${a.text.slice(0, 200)}`);
              break;
            }
            if (a.status >= 500 && a.status !== 503) s.problems.push(`answered ${a.status} (retried): ${a.text.slice(0, 160)}`);
            await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
          }
        }
      };
      await Promise.all(Array.from({ length: concurrency }, client));
      await chaos;
      log(`  ${acknowledged}/${total} acknowledged in ${since(tRun)} s (${subs.reduce((n, s) => n + s.attempts, 0)} attempts)`);

      // The platform is up again, by itself.
      const launcher = await launcherPid(t.latchkey.dataDir);
      if (!isAlive(launcher)) failures.push(`the launcher (pid ${launcher}) is gone`);
      await waitUntil('all four apps run', async () => Object.keys(await appPids(t.latchkey.dataDir)).length === 4, 60_000).catch((e: Error) => failures.push(e.message));
      await waitUntil('/readyz answers 200', async () => (await t.http.get('/readyz')).status === 200, 60_000).catch((e: Error) => failures.push(e.message));
      const who = await t.http.post('/public/v1/query/whoami', JSON.stringify({ organizationId: t.organizationId }), { 'X-Stamp': t.rootStamper.stamp(JSON.stringify({ organizationId: t.organizationId })) });
      if (who.status !== 200) failures.push(`whoami after the chaos: ${who.status || who.error}`);

      // Nothing acknowledged was lost; each submission made exactly one activity.
      for (const s of subs) {
        for (const p of s.problems) failures.push(`submission #${s.index} (${s.name} ${s.marker}): ${p}`);
        if (!s.activityId) failures.push(`submission #${s.index} (${s.name} ${s.marker}) was never acknowledged in ${deadlineMs / 1000} s (${s.attempts} attempts)`);
      }
      const acked = subs.filter((s) => s.activityId).map((s) => s.activityId!);
      const { rows: stored } = await t.db.query<{ id: string; status: string; result: unknown }>('SELECT id, status, result FROM activities WHERE id = ANY($1)', [acked]);
      const byId = new Map(stored.map((r) => [r.id, r]));
      for (const id of acked) {
        const r = byId.get(id);
        if (!r) failures.push(`acknowledged activity ${id} is not stored (lost)`);
        else if (r.status !== 'ACTIVITY_STATUS_COMPLETED') failures.push(`acknowledged activity ${id} is ${r.status}`);
        else if (!r.result || Object.keys(r.result as object).length === 0) failures.push(`COMPLETED activity ${id} has no result (partial write)`);
      }
      const { rows: dupes } = await t.db.query<{ marker: string; n: string }>(
        `SELECT coalesce(intent->'signRawPayloadIntentV2'->>'payload', intent->'createPrivateKeysIntentV2'->'privateKeys'->0->>'privateKeyName') AS marker, count(*) AS n
           FROM activities WHERE organization_id = $1 AND type IN ('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2')
          GROUP BY 1 HAVING count(*) > 1`,
        [t.organizationId],
      );
      for (const d of dupes) failures.push(`${d.n} activities for one submission (${d.marker})`);
      const { rows: noEvent } = await t.db.query<{ id: string }>(
        `SELECT a.id FROM activities a WHERE a.organization_id = $1 AND NOT EXISTS (SELECT 1 FROM outbox_events e WHERE e.organization_id = a.organization_id AND e.payload->'activity'->>'id' = a.id)`,
        [t.organizationId],
      );
      for (const r of noEvent) failures.push(`activity ${r.id} has no outbox event (partial write)`);
      // The audit link is written with the activity: a kill cannot leave a final activity unlinked,
      // nor a gap in the organization's chain (`audit verify` recomputes the hashes themselves).
      const { rows: noLink } = await t.db.query<{ id: string }>(
        `SELECT a.id FROM activities a WHERE a.organization_id = $1 AND a.status IN ('ACTIVITY_STATUS_COMPLETED', 'ACTIVITY_STATUS_FAILED', 'ACTIVITY_STATUS_REJECTED')
            AND NOT EXISTS (SELECT 1 FROM audit_log_entries e WHERE e.organization_id = a.organization_id AND e.activity_id = a.id)`,
        [t.organizationId],
      );
      for (const r of noLink) failures.push(`final activity ${r.id} has no audit link (partial write)`);
      const { rows: chain } = await t.db.query<{ n: string; top: string | null; head: string | null }>(
        `SELECT count(*)::text AS n, max(seq)::text AS top, (SELECT seq::text FROM audit_chain_heads WHERE organization_id = $1) AS head FROM audit_log_entries WHERE organization_id = $1`,
        [t.organizationId],
      );
      if (chain[0] && (chain[0].n !== (chain[0].top ?? '0') || chain[0].head !== chain[0].top)) failures.push(`audit chain of ${t.organizationId}: ${chain[0].n} links numbered up to ${chain[0].top}, head at ${chain[0].head} (a gap)`);
      const { rows: keys } = await t.db.query<{ name: string; addresses: string; completed: boolean }>(
        `SELECT k.name, (SELECT count(*) FROM private_key_addresses p WHERE p.organization_id = k.organization_id AND p.private_key_id = k.id) AS addresses,
                EXISTS (SELECT 1 FROM activities a WHERE a.organization_id = k.organization_id AND a.status = 'ACTIVITY_STATUS_COMPLETED'
                          AND a.intent->'createPrivateKeysIntentV2'->'privateKeys'->0->>'privateKeyName' = k.name) AS completed
           FROM private_keys k WHERE k.organization_id = $1 AND k.name LIKE $2`,
        [t.organizationId, `chaos-${run}-%`],
      );
      for (const k of keys) {
        if (!k.completed) failures.push(`private key ${k.name} exists without a COMPLETED activity (partial write)`);
        if (Number(k.addresses) !== 1) failures.push(`private key ${k.name} has ${k.addresses} addresses, not 1 (partial write)`);
      }
      const keySubs = subs.filter((s) => s.name === 'create_private_keys' && s.activityId).length;
      if (keys.length !== keySubs) failures.push(`${keys.length} chaos private keys stored for ${keySubs} acknowledged create_private_keys`);

      // Every COMPLETED event delivered at least once.
      const missing = () => acked.filter((id) => !(receiver.delivered.get(id) ?? []).includes('ACTIVITY_STATUS_COMPLETED'));
      await waitUntil('every webhook is delivered', () => missing().length === 0, 120_000, 250).catch(() => undefined);
      const undelivered = missing();
      if (undelivered.length > 0) failures.push(`${undelivered.length} activities' COMPLETED webhook never arrived (first: ${undelivered.slice(0, 3).join(', ')})`);
      const duplicates = [...receiver.delivered.values()].filter((v) => v.length > 1).length;
      summary = `${total} submissions, ${acked.length} acknowledged, ${stored.length} stored COMPLETED-checked; chaos: ${done.join('; ')}; ${receiver.deliveries()} webhook deliveries (${duplicates} activities delivered more than once), ${undelivered.length} missing`;
    });
  } finally {
    await receiver.close();
  }
  return { id: 'R3', title: 'kill -9 and dropped connections', ok: failures.length === 0, seconds: since(t0), summary, failures };
}
