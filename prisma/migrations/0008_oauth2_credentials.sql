-- 0008: OAuth 2.0 client credentials of an organization (create_oauth2_credential), used by
-- oauth2_authenticate to exchange authorization codes at X or Discord. The client secret is kept
-- twice, never in the clear: as the client sent it (encrypted to the server's TLS-fetcher key, so
-- get/list can return it as Turnkey does) and sealed by the key vault (what the exchange opens).
CREATE TABLE oauth2_credentials (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  provider text NOT NULL,
  client_id text NOT NULL,
  encrypted_client_secret text NOT NULL,
  sealed_client_secret text NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX oauth2_credentials_organization_id_id_idx ON oauth2_credentials (organization_id, id);
