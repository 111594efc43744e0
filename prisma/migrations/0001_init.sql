-- 0001_init: the whole data model of prisma/schema.prisma.
-- Identifiers are UUIDv7 strings compared bytewise (COLLATE "C"), so ORDER BY id is creation
-- order and a cursor is just an id. Every tenant table leads its indexes with organization_id.

CREATE TABLE organizations (
  id text COLLATE "C" PRIMARY KEY,
  parent_organization_id text COLLATE "C",
  name text NOT NULL,
  root_quorum_threshold integer NOT NULL DEFAULT 1,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  deleted_at timestamptz(6)
);
CREATE INDEX organizations_parent_organization_id_id_idx ON organizations (parent_organization_id, id);

CREATE TABLE root_quorum_members (
  organization_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, user_id)
);

CREATE TABLE organization_features (
  organization_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  value text NOT NULL DEFAULT '',
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, name)
);

CREATE TABLE users (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  user_name text NOT NULL,
  user_email text,
  user_phone_number text,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  deleted_at timestamptz(6)
);
CREATE INDEX users_organization_id_id_idx ON users (organization_id, id);
CREATE INDEX users_organization_id_user_email_idx ON users (organization_id, user_email);
CREATE INDEX users_organization_id_user_phone_number_idx ON users (organization_id, user_phone_number);

CREATE TABLE user_tags (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX user_tags_organization_id_name_key ON user_tags (organization_id, name);

CREATE TABLE user_tag_assignments (
  organization_id text COLLATE "C" NOT NULL,
  user_tag_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  PRIMARY KEY (organization_id, user_tag_id, user_id)
);
CREATE INDEX user_tag_assignments_organization_id_user_id_idx ON user_tag_assignments (organization_id, user_id);

CREATE TABLE api_keys (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  public_key text NOT NULL,
  curve text NOT NULL,
  credential_type text NOT NULL,
  expires_at timestamptz(6),
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  deleted_at timestamptz(6)
);
CREATE INDEX api_keys_organization_id_public_key_idx ON api_keys (organization_id, public_key);
CREATE INDEX api_keys_organization_id_user_id_idx ON api_keys (organization_id, user_id);

CREATE TABLE authenticators (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  credential_id text NOT NULL,
  public_key text NOT NULL,
  credential_type text NOT NULL DEFAULT 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR',
  aaguid text NOT NULL DEFAULT '',
  attestation_type text NOT NULL DEFAULT '',
  model text NOT NULL DEFAULT '',
  transports text[] NOT NULL DEFAULT ARRAY[]::text[],
  sign_count bigint NOT NULL DEFAULT 0,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  deleted_at timestamptz(6)
);
CREATE INDEX authenticators_organization_id_credential_id_idx ON authenticators (organization_id, credential_id);
CREATE INDEX authenticators_organization_id_user_id_idx ON authenticators (organization_id, user_id);

CREATE TABLE oauth_providers (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  provider_name text NOT NULL,
  issuer text NOT NULL,
  subject text NOT NULL,
  audience text NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  deleted_at timestamptz(6)
);
CREATE INDEX oauth_providers_organization_id_issuer_subject_idx ON oauth_providers (organization_id, issuer, subject);
CREATE INDEX oauth_providers_organization_id_user_id_idx ON oauth_providers (organization_id, user_id);

CREATE TABLE wallets (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  sealed_seed text NOT NULL,
  mnemonic_length integer NOT NULL DEFAULT 12,
  exported boolean NOT NULL DEFAULT false,
  imported boolean NOT NULL DEFAULT false,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  deleted_at timestamptz(6)
);
CREATE INDEX wallets_organization_id_id_idx ON wallets (organization_id, id);

CREATE TABLE wallet_accounts (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  wallet_id text COLLATE "C" NOT NULL,
  curve text NOT NULL,
  path_format text NOT NULL,
  path text NOT NULL,
  address_format text NOT NULL,
  address text NOT NULL,
  public_key text NOT NULL,
  name text,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  deleted_at timestamptz(6)
);
CREATE INDEX wallet_accounts_organization_id_wallet_id_id_idx ON wallet_accounts (organization_id, wallet_id, id);
CREATE INDEX wallet_accounts_organization_id_address_idx ON wallet_accounts (organization_id, address);

CREATE TABLE private_keys (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  curve text NOT NULL,
  public_key text NOT NULL,
  sealed_private_key text NOT NULL,
  exported boolean NOT NULL DEFAULT false,
  imported boolean NOT NULL DEFAULT false,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  deleted_at timestamptz(6)
);
CREATE INDEX private_keys_organization_id_id_idx ON private_keys (organization_id, id);

CREATE TABLE private_key_addresses (
  organization_id text COLLATE "C" NOT NULL,
  private_key_id text COLLATE "C" NOT NULL,
  format text NOT NULL,
  address text NOT NULL,
  PRIMARY KEY (organization_id, private_key_id, format)
);
CREATE INDEX private_key_addresses_organization_id_address_idx ON private_key_addresses (organization_id, address);

CREATE TABLE private_key_tags (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX private_key_tags_organization_id_name_key ON private_key_tags (organization_id, name);

CREATE TABLE private_key_tag_assignments (
  organization_id text COLLATE "C" NOT NULL,
  private_key_tag_id text COLLATE "C" NOT NULL,
  private_key_id text COLLATE "C" NOT NULL,
  PRIMARY KEY (organization_id, private_key_tag_id, private_key_id)
);
CREATE INDEX private_key_tag_assignments_organization_id_private_key_id_idx ON private_key_tag_assignments (organization_id, private_key_id);

CREATE TABLE policies (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  effect text NOT NULL,
  condition text NOT NULL DEFAULT '',
  consensus text NOT NULL DEFAULT '',
  notes text NOT NULL DEFAULT '',
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX policies_organization_id_name_key ON policies (organization_id, name);

CREATE TABLE activities (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  type text NOT NULL,
  status text NOT NULL,
  intent jsonb NOT NULL,
  result jsonb NOT NULL DEFAULT '{}',
  failure jsonb,
  fingerprint text NOT NULL,
  created_by_user_id text COLLATE "C",
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX activities_organization_id_fingerprint_key ON activities (organization_id, fingerprint);
CREATE INDEX activities_organization_id_id_idx ON activities (organization_id, id);
CREATE INDEX activities_organization_id_status_id_idx ON activities (organization_id, status, id);

CREATE TABLE votes (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  activity_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  selection text NOT NULL,
  message text NOT NULL DEFAULT '',
  public_key text NOT NULL,
  signature text NOT NULL,
  scheme text NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX votes_organization_id_activity_id_user_id_key ON votes (organization_id, activity_id, user_id);

CREATE TABLE webhook_endpoints (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  url text NOT NULL,
  name text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  sealed_secret text,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_organization_id_id_idx ON webhook_endpoints (organization_id, id);

CREATE TABLE webhook_subscriptions (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  endpoint_id text COLLATE "C" NOT NULL,
  event_type text NOT NULL,
  filters_json text,
  is_active boolean NOT NULL DEFAULT true
);
CREATE INDEX webhook_subscriptions_organization_id_endpoint_id_idx ON webhook_subscriptions (organization_id, endpoint_id);

CREATE TABLE outbox_events (
  id bigserial PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  event_type text NOT NULL,
  payload jsonb NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  available_at timestamptz(6) NOT NULL DEFAULT now(),
  processed_at timestamptz(6),
  last_error text,
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX outbox_events_organization_id_id_idx ON outbox_events (organization_id, id);
-- The worker's claim query scans only unprocessed rows.
CREATE INDEX outbox_events_pending_idx ON outbox_events (available_at, id) WHERE processed_at IS NULL;

CREATE TABLE webhook_deliveries (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  outbox_event_id bigint NOT NULL,
  destination text NOT NULL,
  status_code integer,
  error text,
  attempt integer NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_organization_id_outbox_event_id_idx ON webhook_deliveries (organization_id, outbox_event_id);

CREATE TABLE auth_proxy_configs (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  enabled boolean NOT NULL DEFAULT false,
  allowed_origins text[] NOT NULL DEFAULT ARRAY[]::text[],
  proxy_user_id text COLLATE "C",
  proxy_api_key_id text COLLATE "C",
  sealed_proxy_private_key text,
  email_customization jsonb NOT NULL DEFAULT '{}',
  sms_customization jsonb NOT NULL DEFAULT '{}',
  session_expiration_seconds integer NOT NULL DEFAULT 900,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX auth_proxy_configs_organization_id_key ON auth_proxy_configs (organization_id);

CREATE TABLE otp_records (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  otp_type text NOT NULL,
  contact text NOT NULL,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz(6) NOT NULL,
  used_at timestamptz(6),
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX otp_records_organization_id_contact_idx ON otp_records (organization_id, contact);

CREATE TABLE sessions (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  user_id text COLLATE "C" NOT NULL,
  public_key text NOT NULL,
  session_type text NOT NULL,
  expires_at timestamptz(6) NOT NULL,
  invalidated_at timestamptz(6),
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX sessions_organization_id_user_id_idx ON sessions (organization_id, user_id);

CREATE TABLE tvc_apps (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  quorum_public_key text NOT NULL DEFAULT '',
  live_deployment_id text COLLATE "C",
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  deleted_at timestamptz(6)
);
CREATE INDEX tvc_apps_organization_id_id_idx ON tvc_apps (organization_id, id);

CREATE TABLE tvc_operators (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  name text NOT NULL,
  public_key text NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX tvc_operators_organization_id_id_idx ON tvc_operators (organization_id, id);

CREATE TABLE tvc_deployments (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  app_id text COLLATE "C" NOT NULL,
  qos_version text NOT NULL,
  pivot_container_image_url text NOT NULL,
  pivot_path text NOT NULL,
  pivot_args text[] NOT NULL DEFAULT ARRAY[]::text[],
  expected_pivot_digest text NOT NULL,
  nonce bigint NOT NULL,
  sealed_pull_secret text,
  debug_mode boolean NOT NULL DEFAULT false,
  health_check_type text NOT NULL,
  health_check_port integer NOT NULL,
  public_ingress_port integer NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  deleted_at timestamptz(6)
);
CREATE INDEX tvc_deployments_organization_id_app_id_idx ON tvc_deployments (organization_id, app_id);

CREATE TABLE tvc_manifests (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  deployment_id text COLLATE "C" NOT NULL,
  manifest jsonb NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX tvc_manifests_organization_id_deployment_id_idx ON tvc_manifests (organization_id, deployment_id);

CREATE TABLE tvc_manifest_approvals (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  manifest_id text COLLATE "C" NOT NULL,
  operator_id text COLLATE "C" NOT NULL,
  signature text NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tvc_manifest_approvals_org_manifest_operator_key ON tvc_manifest_approvals (organization_id, manifest_id, operator_id);

CREATE TABLE gas_limits (
  organization_id text COLLATE "C" PRIMARY KEY,
  window_duration_minutes integer NOT NULL DEFAULT 60,
  window_limit_usd numeric(20, 6) NOT NULL DEFAULT 0,
  updated_at timestamptz(6) NOT NULL DEFAULT now()
);

CREATE TABLE gas_ledger_entries (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  activity_id text COLLATE "C",
  usage_usd numeric(20, 6) NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX gas_ledger_entries_organization_id_created_at_idx ON gas_ledger_entries (organization_id, created_at);

CREATE TABLE server_keys (
  purpose text PRIMARY KEY,
  public_key text NOT NULL,
  sealed_private_key text NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now()
);

CREATE TABLE system_state (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz(6) NOT NULL DEFAULT now()
);
