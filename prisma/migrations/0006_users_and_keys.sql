-- 0006: users, user tags and API keys. A public key names at most one live API-key credential in
-- an organization, so a stamp always resolves to one user. create_users and create_api_keys check
-- this first (and say who holds the key); the index makes concurrent creates fail cleanly.
-- Session and login keys (other credential types) are left out: a client may log in twice with
-- one key.
CREATE UNIQUE INDEX api_keys_organization_id_live_api_public_key_key ON api_keys (organization_id, public_key)
  WHERE deleted_at IS NULL
    AND credential_type IN ('CREDENTIAL_TYPE_API_KEY_P256', 'CREDENTIAL_TYPE_API_KEY_SECP256K1', 'CREDENTIAL_TYPE_API_KEY_ED25519');
