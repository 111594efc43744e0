/**
 * `latchkey audit verify [--org ID]`: recomputes the tamper-evident activity log — each
 * organization's hash chain over its COMPLETED, FAILED and REJECTED activities (migration 0021) —
 * from the activity rows, and names the first broken link of each chain. Prints a JSON summary and
 * exits 0 when every chain holds; exits 1 naming organization, sequence and activity otherwise.
 */
import { parseConfig, type TConfig } from '@latchkey/domain';
import { openDatabase, verifyAuditChains, type TAuditOrgReport } from '@latchkey/persistence';
import { defineCommand } from '../cli-command.js';
import { openMigratedDatabase } from '../database-setup.js';
import { UsageError } from '../usage-error.js';

interface TAuditVerifyOptions {
  org?: string;
}

export interface TAuditVerifySummary {
  ok: true;
  organizations: number;
  entries: number;
}

/** One line per broken chain: what an operator greps for. */
export function describeBreaks(reports: readonly TAuditOrgReport[]): string {
  return reports
    .flatMap((r) => (r.broken ? [`organization ${r.organizationId}: link ${r.broken.seq}${r.broken.activityId ? ` (activity ${r.broken.activityId})` : ''}: ${r.broken.reason}`] : []))
    .join('\n');
}

/**
 * @throws Error naming each chain's first broken link (exit code 1), or when the database is unreachable.
 */
export async function auditVerifyCommand(config: TConfig, organizationId: string | undefined): Promise<TAuditVerifySummary> {
  const database = await openMigratedDatabase(config, { reuseRunning: true, log: () => undefined });
  const db = openDatabase(database.url, { max: 1 });
  let reports: TAuditOrgReport[];
  try {
    reports = await verifyAuditChains(db, organizationId === undefined ? {} : { organizationId });
  } finally {
    await db.close();
    await database.release();
  }
  const broken = describeBreaks(reports);
  if (broken) throw new Error(`the audit log is broken:\n${broken}`);
  return { ok: true, organizations: reports.length, entries: reports.reduce((n, r) => n + r.entries, 0) };
}

export const auditVerify = defineCommand<TAuditVerifyOptions>({
  name: 'audit verify',
  summary: "recompute the activity log's hash chains and report the first broken link",
  details:
    'Each organization\'s chain links its COMPLETED, FAILED and REJECTED activities: hash = SHA-256(previous hash ‖ canonical activity bytes) (libs/activity-engine/README.md, "The audit log"). Reads one consistent snapshot. Prints {"ok": true, "organizations": n, "entries": n}; on a break exits 1 naming, per broken chain, the organization, the link (sequence number), the activity and why (HASH_MISMATCH, SEQUENCE_GAP, ACTIVITY_MISSING, HEAD_MISMATCH, UNCHAINED_ACTIVITY). Uses DATABASE_URL, or the embedded database of LATCHKEY_DATA_DIR.',
  options: [{ flags: '--org <id>', description: "verify this organization's chain only" }],
  run: (o, { env }) => {
    if (o.org === '') throw new UsageError('--org must not be empty');
    return auditVerifyCommand(parseConfig(env), o.org);
  },
});
