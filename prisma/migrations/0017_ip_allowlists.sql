-- 0017: IP allowlists (issue 16 §2). One row per organization-level list (public_key = '') and per
-- API-key list (public_key = the key's compressed public key). The rules are CIDR blocks with
-- labels, kept as one JSON array ([{cidr, label?, createdAt}]): always read and written whole,
-- at most 100 of them. Checked on every stamped request, so read through the auth cache.
CREATE TABLE ip_allowlists (
  organization_id text COLLATE "C" NOT NULL,
  public_key text COLLATE "C" NOT NULL DEFAULT '',
  enabled boolean NOT NULL DEFAULT true,
  on_evaluation_error text NOT NULL DEFAULT 'DENY' CHECK (on_evaluation_error IN ('ALLOW', 'DENY')),
  rules jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, public_key)
);
