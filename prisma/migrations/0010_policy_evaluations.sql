-- 0010: every policy evaluation of an activity — at submission and at each vote — with each
-- policy's outcome (and evaluation error), for get_policy_evaluations. Votes record the stamp
-- that cast them; a vote's activity may be looked up by its id.
CREATE TABLE policy_evaluations (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  activity_id text COLLATE "C" NOT NULL,
  vote_id text COLLATE "C",
  outcome text NOT NULL,
  evaluations jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX policy_evaluations_organization_id_activity_id_id_idx ON policy_evaluations (organization_id, activity_id, id);
