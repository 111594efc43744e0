-- 0013: the auth proxy's configuration. auth_proxy_configs exists since 0001 (one row per
-- organization, its id being the X-Auth-Proxy-Config-ID); this adds the settings of
-- update_auth_proxy_config (the v1UpdateAuthProxyConfigIntent fields, defaults filled in when
-- read) and the policy that lets the proxy user run the login activities it forwards.
-- allowed_origins, email_customization, sms_customization and session_expiration_seconds stay
-- as 0001 made them; the settings document is the one source the code reads.
ALTER TABLE auth_proxy_configs ADD COLUMN settings jsonb NOT NULL DEFAULT '{}';
ALTER TABLE auth_proxy_configs ADD COLUMN proxy_policy_id text COLLATE "C";
