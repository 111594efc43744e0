-- 0026: live API keys by public key alone (issue 17 §4, cheap refusals).
-- A stamp whose public key no live API key holds in any organization is refused before its body is
-- read or its organization looked up: one index probe, then a cached miss. Without this index the
-- probe would scan api_keys. Not unique (one public key may be held in several organizations), so
-- it needs no organization_id to stay distributable: on Citus it is a per-shard index and the probe
-- fans out to the shards, as a lookup without the distribution column does.
CREATE INDEX api_keys_live_public_key_idx ON api_keys (public_key) WHERE deleted_at IS NULL;
