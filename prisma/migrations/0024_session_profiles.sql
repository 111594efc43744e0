-- 0024: session profiles and read-only sessions (issue 16 §4).
-- A session profile is a named scope and lifetime, immutable once created (Turnkey has no update
-- or delete for it). A login naming one records it on the session key it registers
-- (api_keys.session_profile_id), and every request stamped by that key is checked against the
-- profile's scope. A read-only session is an opaque bearer token (X-Session): only its SHA-256 is
-- stored, so a database reader cannot present it.
CREATE TABLE session_profiles (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  scope text NOT NULL,
  expiration_seconds integer,
  notes text NOT NULL DEFAULT '',
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX session_profiles_org ON session_profiles (organization_id, created_at, id);

ALTER TABLE api_keys ADD COLUMN session_profile_id text COLLATE "C";

CREATE TABLE read_only_sessions (
  token_hash text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  expires_at timestamptz(6) NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX read_only_sessions_user ON read_only_sessions (organization_id, user_id);
