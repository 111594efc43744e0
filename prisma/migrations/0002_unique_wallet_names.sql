-- 0002: wallet names are unique among an organization's live wallets. The handler's own check
-- could race (READ COMMITTED); the index makes concurrent creates with one name fail cleanly.
CREATE UNIQUE INDEX wallets_organization_id_live_name_key ON wallets (organization_id, name) WHERE deleted_at IS NULL;
