-- 0003: a wallet account can be exported on its own (export_wallet_account), and a live wallet
-- holds each (curve, path, address format) at most once.
ALTER TABLE wallet_accounts ADD COLUMN exported boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX wallet_accounts_live_derivation_key ON wallet_accounts (organization_id, wallet_id, curve, path, address_format) WHERE deleted_at IS NULL;
