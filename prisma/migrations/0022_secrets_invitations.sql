-- 0022 (issue 16 §6, §7): opaque secrets, invitations and the e-mail events of the mail sender.
--
-- secrets: what import_secrets brought in, sealed by the key vault under the AAD
-- `secret:<id>` (keys/vault-aad.ts); the plaintext never reaches this table. A name is optional
-- and unique within its organization when given. static_properties is the policy-visible
-- [{key, value}] list bound at import, never changed afterwards.
CREATE TABLE secrets (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  name text,
  sealed_secret text NOT NULL,
  static_properties jsonb NOT NULL DEFAULT '[]',
  created_by_user_id text COLLATE "C" NOT NULL,
  exported_at timestamptz(6),
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX secrets_organization_id_id_idx ON secrets (organization_id, id);
CREATE UNIQUE INDEX secrets_organization_id_name_key ON secrets (organization_id, name) WHERE name IS NOT NULL;

-- invitations: create_invitations writes one per receiver and mails it; accepting one (within 7
-- days) makes the receiver a user with the invited name, e-mail and tags.
CREATE TABLE invitations (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  sender_user_id text COLLATE "C" NOT NULL,
  receiver_user_name text NOT NULL,
  receiver_email text NOT NULL,
  receiver_user_tags jsonb NOT NULL DEFAULT '[]',
  access_type text NOT NULL CHECK (access_type IN ('ACCESS_TYPE_WEB', 'ACCESS_TYPE_API', 'ACCESS_TYPE_ALL')),
  status text NOT NULL DEFAULT 'INVITATION_STATUS_CREATED' CHECK (status IN ('INVITATION_STATUS_CREATED', 'INVITATION_STATUS_ACCEPTED', 'INVITATION_STATUS_REVOKED')),
  accepted_user_id text COLLATE "C",
  expires_at timestamptz(6) NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX invitations_organization_id_id_idx ON invitations (organization_id, id);

-- email_events: each message the mail sender handled for an organization's activity — Send when
-- handed to SMTP, Delivery when the server answered 250, Bounce on a 5xx — by recipient.
CREATE TABLE email_events (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  message_id text NOT NULL,
  event_type text NOT NULL CHECK (event_type IN ('Send', 'Delivery', 'Bounce', 'DeliveryDelay')),
  from_address text NOT NULL,
  to_address text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}',
  occurred_at timestamptz(6) NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX email_events_organization_id_to_address_id_idx ON email_events (organization_id, to_address, id);
