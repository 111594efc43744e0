-- 0025: MFA policies (issue 16 §3).
-- A user's MFA policies say which activities of that user wait in
-- ACTIVITY_STATUS_AUTHENTICATORS_NEEDED, and which authentication methods, in order, must approve
-- them before they go on to the organization's policies. Keyed by (organization_id, id), so the
-- table is distributable by organization (Citus).
CREATE TABLE mfa_policies (
  organization_id text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  condition text NOT NULL,
  -- v1RequiredAuthenticationMethod[]: [{"any": [{"type": …, "id"?: …}]}, …], in order.
  required_methods jsonb NOT NULL,
  policy_order integer NOT NULL,
  notes text NOT NULL DEFAULT '',
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
CREATE INDEX mfa_policies_user ON mfa_policies (organization_id, user_id, policy_order, created_at, id);

-- The MFA an activity waits for: the policy that applied when it was submitted, its steps as they
-- were then (a later update or deletion of the policy does not change what a waiting activity
-- needs), and the steps done so far, each with the credential that did it.
CREATE TABLE activity_mfa (
  organization_id text COLLATE "C" NOT NULL,
  activity_id text COLLATE "C" NOT NULL,
  mfa_policy_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  required_methods jsonb NOT NULL,
  -- [{"type": "AUTHENTICATION_TYPE_…", "id": credential id, "at": ISO time}, …], in order.
  satisfied_methods jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, activity_id, mfa_policy_id)
);
