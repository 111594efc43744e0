-- 0009: each wallet account's private key, sealed by the key vault (aad `wallet-account-key:<id>`)
-- when the account is derived, so that signing opens one key instead of re-deriving it from the
-- wallet's mnemonic. NULL for accounts derived before this migration (signing derives those) and
-- for deleted accounts (deletion clears it).
ALTER TABLE wallet_accounts ADD COLUMN sealed_private_key text;
