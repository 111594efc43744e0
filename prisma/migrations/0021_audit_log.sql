-- 0021: the tamper-evident activity log (issue 17). Every activity that reaches COMPLETED, FAILED
-- or REJECTED gets one entry in its organization's hash chain:
--   hash(n) = SHA-256(hash(n-1) || canonical bytes of the activity)   (hash(0) = 32 zero bytes)
-- The canonical bytes are defined in libs/activity-engine/README.md ("The audit log") and
-- computed by libs/persistence/src/audit/canonical-activity.ts. The entry is written by the very
-- statement or transaction that finalises the activity, so a crash cannot leave a final activity
-- without its link.
--
-- audit_chain_heads holds each organization's last link: appending is an upsert of that one row,
-- whose row lock serialises the appends of one organization (and only of that one) until the
-- appending transaction ends. Both tables are keyed by organization_id first (distributable).
CREATE TABLE audit_chain_heads (
  organization_id text COLLATE "C" NOT NULL,
  seq bigint NOT NULL,
  hash bytea NOT NULL,
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id)
);

CREATE TABLE audit_log_entries (
  organization_id text COLLATE "C" NOT NULL,
  seq bigint NOT NULL,
  activity_id text COLLATE "C" NOT NULL,
  hash bytea NOT NULL,
  recorded_at timestamptz(6) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, seq),
  UNIQUE (organization_id, activity_id)
);
