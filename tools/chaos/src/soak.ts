/**
 * R5 soak (issue 17): the maximum rate of a mixed load is measured briefly (closed loop, 16
 * clients, CHAOS_SOAK_PROBE_SECONDS, default 10 s, after a 3 s warm-up), then the load runs open
 * loop at half that (CHAOS_SOAK_RATE overrides) for CHAOS_SOAK_SECONDS — 120 s by default (the CI
 * variant), 600 s with CHAOS_SOAK_FULL=1 (the full proof).
 *
 * The load: four in five requests are whoami queries, one in five a sign_raw_payload activity
 * (each a new one, so the webhook worker delivers it to a receiver endpoint).
 *
 * Expected: 0 errors (every answer a 200 and, for an activity, COMPLETED); no app restarted; the
 * resident memory (VmRSS) of each of the four apps grows less than 10% from the soak's first 20 s
 * to its last 20 s (medians of samples every 2 s, so one garbage collection does not decide).
 */
import { randomBytes } from 'node:crypto';
import { perform } from './support/activities.js';
import { APP_NAMES, appPids, rssKiB, withTarget, type TAppName, type TTarget } from './support/platform.js';
import { intFromEnv, log, since, type TProofResult } from './support/report.js';
import { startWebhookReceiver } from './support/webhook-receiver.js';

const MAX_RSS_GROWTH = 0.1;

interface TLoad {
  op(t: TTarget): Promise<string | undefined>;
}

function createLoad(t: TTarget, signWith: string): TLoad {
  let n = 0;
  const whoami = JSON.stringify({ organizationId: t.organizationId });
  return {
    async op() {
      n++;
      if (n % 5 !== 0) {
        const a = await t.http.post('/public/v1/query/whoami', whoami, { 'X-Stamp': t.rootStamper.stamp(whoami) });
        return a.status === 200 ? undefined : `whoami: ${a.status || a.error} ${a.text.slice(0, 160)}`;
      }
      const body = JSON.stringify({
        type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
        timestampMs: String(Date.now()),
        organizationId: t.organizationId,
        parameters: { signWith, payload: randomBytes(32).toString('hex'), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' },
      });
      const a = await t.http.post('/public/v1/submit/sign_raw_payload', body, { 'X-Stamp': t.rootStamper.stamp(body) });
      if (a.status !== 200) return `sign_raw_payload: ${a.status || a.error} ${a.text.slice(0, 160)}`;
      return a.text.includes('"ACTIVITY_STATUS_COMPLETED"') ? undefined : `sign_raw_payload not COMPLETED: ${a.text.slice(0, 160)}`;
    },
  };
}

/** Closed loop: `clients` back-to-back for `seconds`; ops per second. */
async function closedLoop(t: TTarget, load: TLoad, clients: number, seconds: number, errors: string[]): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let ops = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) {
        const e = await load.op(t);
        if (e) errors.push(e);
        ops++;
      }
    }),
  );
  return ops / ((Date.now() - t0) / 1000);
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export async function runSoak(): Promise<TProofResult> {
  const t0 = Date.now();
  const seconds = process.env['CHAOS_SOAK_FULL'] === '1' ? 600 : intFromEnv('CHAOS_SOAK_SECONDS', 120);
  const probeSeconds = intFromEnv('CHAOS_SOAK_PROBE_SECONDS', 10);
  const failures: string[] = [];
  let summary = '';
  const receiver = await startWebhookReceiver();
  try {
    await withTarget({ LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: 'true' }, async (t) => {
      const wallet = await perform(t, t.rootStamper, 'create_wallet', 'ACTIVITY_TYPE_CREATE_WALLET', {
        walletName: `chaos-soak-${Date.now()}`,
        accounts: [{ curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }],
      });
      await perform(t, t.rootStamper, 'create_webhook_endpoint', 'ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT', { name: 'chaos-soak', url: `${receiver.url}/hook`, subscriptions: [{ eventType: 'ACTIVITY_UPDATES' }] });
      const load = createLoad(t, (wallet['addresses'] as string[])[0]!);
      const errors: string[] = [];
      await closedLoop(t, load, 16, 3, errors);
      const max = await closedLoop(t, load, 16, probeSeconds, errors);
      const rate = process.env['CHAOS_SOAK_RATE'] ? intFromEnv('CHAOS_SOAK_RATE', 1) : Math.max(1, Math.floor(max / 2));
      log(`R5 soak: maximum ${Math.round(max)} ops/s (closed loop, 16 clients, ${probeSeconds} s); soaking at ${rate} ops/s for ${seconds} s`);

      const pids = await appPids(t.latchkey.dataDir);
      for (const app of APP_NAMES) if (!pids[app]) failures.push(`${app} has no pid before the soak`);
      const samples = new Map<TAppName, { at: number; kib: number }[]>(APP_NAMES.map((a) => [a, []]));
      const tSoak = Date.now();
      const sampler = setInterval(() => {
        for (const app of APP_NAMES) {
          const pid = pids[app];
          if (pid) void rssKiB(pid).then((kib) => kib !== undefined && samples.get(app)!.push({ at: Date.now() - tSoak, kib }));
        }
      }, 2_000);
      let sent = 0;
      let inFlight = 0;
      let maxInFlight = 0;
      const inFlightCap = 512;
      let skipped = 0;
      const soakErrors: string[] = [];
      const pending = new Set<Promise<void>>();
      while (Date.now() - tSoak < seconds * 1000) {
        const due = Math.floor(((Date.now() - tSoak) / 1000) * rate);
        while (sent < due) {
          sent++;
          if (inFlight >= inFlightCap) {
            skipped++;
            continue;
          }
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          const p: Promise<void> = load.op(t).then((e) => {
            if (e) soakErrors.push(e);
            inFlight--;
            pending.delete(p);
          });
          pending.add(p);
        }
        await new Promise((r) => setTimeout(r, 5));
      }
      await Promise.all(pending);
      clearInterval(sampler);
      const soakSeconds = since(tSoak);

      const after = await appPids(t.latchkey.dataDir);
      for (const app of APP_NAMES) if (after[app] !== pids[app]) failures.push(`${app} restarted during the soak (pid ${pids[app]} → ${after[app]})`);
      if (soakErrors.length > 0) failures.push(`${soakErrors.length} errors during the soak (first: ${soakErrors.slice(0, 3).join(' | ')})`);
      if (skipped > 0) failures.push(`${skipped} requests not sent: ${inFlightCap} were in flight (the platform fell behind half its maximum)`);
      const window = Math.min(20_000, (seconds * 1000) / 4);
      const rssReport: string[] = [];
      for (const app of APP_NAMES) {
        const s = samples.get(app)!;
        const first = median(s.filter((x) => x.at <= window).map((x) => x.kib));
        const last = median(s.filter((x) => x.at >= seconds * 1000 - window).map((x) => x.kib));
        const growth = last / first - 1;
        rssReport.push(`${app} ${Math.round(first / 1024)}→${Math.round(last / 1024)} MiB (${(growth * 100).toFixed(1)}%)`);
        if (!(growth < MAX_RSS_GROWTH)) failures.push(`${app}: resident memory grew ${(growth * 100).toFixed(1)}% (${first} → ${last} KiB; limit ${MAX_RSS_GROWTH * 100}%)`);
      }
      summary = `max ${Math.round(max)} ops/s, soaked ${sent} ops at ${rate}/s for ${soakSeconds} s (max ${maxInFlight} in flight), ${soakErrors.length} errors (${errors.length} while probing); RSS ${rssReport.join(', ')}`;
      log(`  ${summary}`);
    });
  } finally {
    await receiver.close();
  }
  return { id: 'R5', title: `soak (${process.env['CHAOS_SOAK_FULL'] === '1' ? 'full, 10 min' : 'short'})`, ok: failures.length === 0, seconds: since(t0), summary, failures };
}
