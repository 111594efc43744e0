-- 0019: the TVC control plane (issue 15 §1). 0001 created placeholder tables for apps, operators,
-- deployments, manifests and approvals that nothing wrote; this gives them what the activities
-- need: operator sets (an app's manifest set approves deployments, its share set holds the quorum
-- key), the app's flags, a deployment's manifest id, approval time and sizing, and the manifest
-- as text — the exact RFC 8785 bytes operators sign and the manifest id hashes (jsonb would
-- reorder and re-space them).

CREATE TABLE tvc_operator_sets (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  threshold integer NOT NULL CHECK (threshold >= 1),
  -- The members in the order given; a set is read and written whole, never changed.
  operator_ids text[] COLLATE "C" NOT NULL CHECK (cardinality(operator_ids) >= threshold),
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX tvc_operator_sets_organization_id_id_idx ON tvc_operator_sets (organization_id, id);

ALTER TABLE tvc_apps
  ADD COLUMN manifest_set_id text COLLATE "C" NOT NULL,
  ADD COLUMN share_set_id text COLLATE "C" NOT NULL,
  ADD COLUMN enable_egress boolean NOT NULL DEFAULT false,
  ADD COLUMN enable_debug_mode_deployments boolean NOT NULL DEFAULT false;

ALTER TABLE tvc_deployments
  ADD COLUMN manifest_id text COLLATE "C" NOT NULL,
  -- Set once, when the manifest set's threshold of approvals is first met; restoring a deleted
  -- deployment keeps it (its approvals still hold).
  ADD COLUMN approved_at timestamptz(6),
  ADD COLUMN replicas integer,
  ADD COLUMN instance_size_cpus integer,
  ADD COLUMN instance_size_ram integer;

ALTER TABLE tvc_manifests ALTER COLUMN manifest TYPE text USING manifest::text;
