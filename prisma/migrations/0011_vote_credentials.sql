-- 0011: a vote records which credential cast it — the API key or authenticator id, its credential
-- type, and a passkey's WebAuthn credential id — so a consensus re-evaluated at each approval sees
-- the same `credentials` facts (id, type, credential_id) as at submission. A stamp's scheme cannot
-- tell them apart: passkey stamps are P-256 too. NULL on votes cast before this migration.
ALTER TABLE votes
  ADD COLUMN credential_id text COLLATE "C",
  ADD COLUMN credential_type text,
  ADD COLUMN webauthn_credential_id text;
