/**
 * Auth proxy `otp_init_v2` throughput against the same activity submitted straight to the public
 * API in the same run (issue 13 §5: goal proxy ≥ 0.6 × direct; the proxy adds one HTTP hop and one
 * stamp). A fresh Latchkey (`npm start`'s launcher, so the real proxy and public API processes)
 * sends every code to a real SMTP capture server in this process.
 *
 * - **Direct**: `init_otp` (INIT_OTP_V3) stamped by the root key, with the parameters the proxy
 *   sends for its config (app name, length 6, alphanumeric, 300 s, the config's e-mail settings).
 * - **Proxy**: `POST /v1/otp_init_v2` with `X-Auth-Proxy-Config-ID`, as `@turnkey/core` sends it.
 * Every request has its own contact (the public API allows 5 codes per contact per 10 minutes);
 * rate limits are off on both (LATCHKEY_RATE_LIMIT_*_RPS=0, the config's rateLimits 0). Rounds
 * alternate direct/proxy; every answer must be a 200, else exit 1.
 *
 * Run: `npm run bench:proxy-otp` from the repository root (bundles the apps first).
 * Environment: BENCH_REQUESTS (400 per phase), BENCH_CONCURRENCY (16), BENCH_ROUNDS (2),
 * BENCH_LATCHKEY_LOG_LEVEL (warn).
 */
import { signP256 } from '@latchkey/crypto';
import { startSmtpCapture, type TSmtpCapture } from '@latchkey/testkit';
import { describeMachine, intFromEnv, loadAvg1m, ms, percentile, printMachine, printTable, withLatchkey, type TBenchTarget } from './bench-support.js';

const GOAL_RATIO = 0.6;
const settings = {
  requests: intFromEnv('BENCH_REQUESTS', 400),
  concurrency: intFromEnv('BENCH_CONCURRENCY', 16),
  rounds: intFromEnv('BENCH_ROUNDS', 2),
  latchkeyLogLevel: process.env['BENCH_LATCHKEY_LOG_LEVEL'] || 'warn',
};

let contactSeq = 0;
const contact = (phase: string) => `bench-${phase}-${Date.now().toString(36)}-${++contactSeq}@example.com`;

interface TPhase {
  rps: number;
  p50: number;
  p99: number;
}

/** Runs `requests` calls at `concurrency`; every answer must be 200. */
async function phase(call: () => Promise<Response>): Promise<TPhase> {
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: settings.concurrency }, async () => {
      while (next < settings.requests) {
        next += 1;
        const s = performance.now();
        const r = await call();
        const text = await r.text();
        if (r.status !== 200) throw new Error(`answer ${r.status}: ${text.slice(0, 300)}`);
        latencies.push(performance.now() - s);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { rps: settings.requests / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function stampedPost(url: string, body: object, key: { publicKey: string; privateKey: string }): Promise<Response> {
  const raw = Buffer.from(JSON.stringify(body));
  const stamp = Buffer.from(JSON.stringify({ publicKey: key.publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature: signP256(key.privateKey, raw) })).toString('base64url');
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-stamp': stamp }, body: raw });
}

async function run(t: TBenchTarget, smtp: TSmtpCapture): Promise<number> {
  const { latchkey, organizationId } = t;
  const root = { publicKey: latchkey.bootstrap.apiPublicKey, privateKey: latchkey.bootstrap.apiPrivateKey! };
  const submit = (path: string, type: string, parameters: object) =>
    stampedPost(`${latchkey.baseUrl}/public/v1/submit/${path}`, { type, timestampMs: String(Date.now()), organizationId, parameters }, root);
  const enabled = (await (await submit('enable_auth_proxy', 'ACTIVITY_TYPE_ENABLE_AUTH_PROXY', {})).json()) as { activity: { result: { enableAuthProxyResult: { configId: string } } } };
  const configId = enabled.activity.result.enableAuthProxyResult.configId;
  const updated = await submit('update_auth_proxy_config', 'ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG', { allowedOrigins: ['*'], allowedAuthMethods: ['email'], rateLimits: { configRps: 0, ipRps: 0, otpPerContactPerMinute: 0 } });
  if (updated.status !== 200) throw new Error(`update_auth_proxy_config: ${updated.status} ${await updated.text()}`);
  await new Promise((r) => setTimeout(r, 1100)); // the proxy keeps a config for 1 s

  const direct = () =>
    submit('init_otp', 'ACTIVITY_TYPE_INIT_OTP_V3', { otpType: 'OTP_TYPE_EMAIL', contact: contact('direct'), appName: 'Latchkey', otpLength: 6, alphanumeric: true, expirationSeconds: '300', emailCustomization: {} });
  const viaProxy = () =>
    fetch(`${latchkey.authProxyUrl}/v1/otp_init_v2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-proxy-config-id': configId },
      body: JSON.stringify({ otpType: 'OTP_TYPE_EMAIL', contact: contact('proxy') }),
    });

  // Warm both paths (connections, caches, JIT).
  for (let i = 0; i < 20; i++) {
    for (const call of [direct, viaProxy]) {
      const r = await call();
      if (r.status !== 200) throw new Error(`warm-up: ${r.status} ${await r.text()}`);
    }
  }
  const rows: string[][] = [['round', 'path', 'req/s', 'p50 ms', 'p99 ms', 'load 1m']];
  const ratios: number[] = [];
  for (let round = 1; round <= settings.rounds; round++) {
    const d = await phase(direct);
    rows.push([String(round), 'direct init_otp', d.rps.toFixed(0), String(ms(d.p50)), String(ms(d.p99)), String(loadAvg1m())]);
    const p = await phase(viaProxy);
    rows.push([String(round), 'proxy otp_init_v2', p.rps.toFixed(0), String(ms(p.p50)), String(ms(p.p99)), String(loadAvg1m())]);
    ratios.push(p.rps / d.rps);
  }
  printTable(rows);
  const mails = smtp.messages.length;
  console.log(`mails received: ${mails}`);
  const ratio = ratios.reduce((a, b) => a + b, 0) / ratios.length;
  console.log(`proxy / direct: ${ratios.map((r) => r.toFixed(2)).join(', ')} (mean ${ratio.toFixed(2)}; goal ≥ ${GOAL_RATIO})`);
  console.log(`BENCH_RESULT ${JSON.stringify({ bench: 'proxy-otp', date: new Date().toISOString(), machine: { ...machine, loadAvg1mAtEnd: loadAvg1m() }, settings, mails, ratios: ratios.map((r) => Number(r.toFixed(2))), ratio: Number(ratio.toFixed(2)), goalRatio: GOAL_RATIO, goalMet: ratio >= GOAL_RATIO })}`);
  return ratio >= GOAL_RATIO ? 0 : 2;
}

const machine = describeMachine();
printMachine(machine);
console.log(`settings: ${JSON.stringify(settings)}`);
const smtp = await startSmtpCapture();
process.env['LATCHKEY_SMTP_URL'] = smtp.url;
const code = await withLatchkey(settings.latchkeyLogLevel, (t) => run(t, smtp));
await smtp.stop();
process.exit(code);
