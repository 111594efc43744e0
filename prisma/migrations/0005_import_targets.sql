-- 0005: the one-time encryption targets handed out by init_import_wallet / init_import_private_key.
-- The target's private key is sealed by the key vault and used once by the matching import.
CREATE TABLE import_targets (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  kind text NOT NULL,
  public_key text NOT NULL,
  sealed_private_key text NOT NULL,
  expires_at timestamptz(6) NOT NULL,
  used_at timestamptz(6),
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX import_targets_organization_id_user_id_kind_id_idx ON import_targets (organization_id, user_id, kind, id);
