-- 0004: private key names are unique among an organization's live private keys.
CREATE UNIQUE INDEX private_keys_organization_id_live_name_key ON private_keys (organization_id, name) WHERE deleted_at IS NULL;
