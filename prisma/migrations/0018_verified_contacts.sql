-- 0018: the contacts a user proved they hold with an OTP verification token (a sign-up carrying
-- the token, otp_login, or an attested stamp_login). list_verified_suborgs finds sub-organizations
-- by these only. A row names the contact as it was verified (e-mail lower-cased), so changing a
-- user's e-mail or phone number leaves the new one unverified without touching this table.
CREATE TABLE verified_contacts (
  user_id text COLLATE "C" NOT NULL,
  organization_id text COLLATE "C" NOT NULL,
  kind text NOT NULL CHECK (kind IN ('EMAIL', 'PHONE_NUMBER')),
  contact text NOT NULL,
  verified_at timestamptz(6) NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, kind, contact)
);
CREATE INDEX verified_contacts_organization_idx ON verified_contacts (organization_id);
