-- 0015: approvals lapse. The votes on an activity waiting for consensus count for
-- LATCHKEY_APPROVAL_WINDOW_SECONDS (24 h by default) from the first; after that the activity
-- stays CONSENSUS_NEEDED with no votes and must be approved again. Lapsed votes are kept (they
-- are signed records of who approved what, and policy evaluations name them) but marked, so a
-- user may vote again: one live vote per user and activity, any number of lapsed ones.
ALTER TABLE votes ADD COLUMN lapsed_at timestamptz(6);
DROP INDEX votes_organization_id_activity_id_user_id_key;
CREATE UNIQUE INDEX votes_live_organization_id_activity_id_user_id_key ON votes (organization_id, activity_id, user_id) WHERE lapsed_at IS NULL;
