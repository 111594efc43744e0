-- 0007: login state. An OTP record now knows its flow (init_otp → verify_otp, or init_otp_auth →
-- otp_auth), the salt of its hashed code, the user it logs in (otp_auth) and, for init_otp V3, the
-- one-time HPKE target the client encrypts the code to (private half sealed by the key vault).
-- Verification tokens are single-use: the ids of spent ones are recorded here.
ALTER TABLE otp_records
  ADD COLUMN kind text NOT NULL DEFAULT 'OTP',
  ADD COLUMN user_id text COLLATE "C",
  ADD COLUMN code_salt text NOT NULL DEFAULT '',
  ADD COLUMN target_public_key text,
  ADD COLUMN sealed_target_private_key text;
CREATE INDEX otp_records_contact_created_at_idx ON otp_records (contact, created_at);

CREATE TABLE spent_verification_tokens (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  spent_at timestamptz(6) NOT NULL DEFAULT now()
);
