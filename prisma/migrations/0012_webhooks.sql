-- 0012: webhooks. Endpoints and their subscriptions exist since 0001 (webhook_endpoints,
-- webhook_subscriptions, ordered by their UUIDv7 ids); this adds the installation's Ed25519 signing
-- keys (sealed by the key vault), one queued message per (outbox event, endpoint), the log of every
-- delivery attempt, and the trigger that wakes the workers. The outbox stays the single place an
-- activity's transaction writes to; the worker fans each event out into messages.

-- Not tenant data: one installation-wide key signs every delivery. The newest key without
-- retired_at signs; a retired key stays in the JWKS until publish_until.
CREATE TABLE webhook_signing_keys (
  id text COLLATE "C" PRIMARY KEY,
  public_key text NOT NULL,
  sealed_private_key text NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  retired_at timestamptz(6),
  publish_until timestamptz(6)
);

-- One message per (event, endpoint). `id` is the queue order: assigned when the worker fans an
-- event out, one fan-out at a time, so it follows the order events became visible (committed).
-- status: pending → delivering (claimed, lease_until set) → delivered | pending (retry) | dead.
-- organization_id is the endpoint's organization (the X-Turnkey-Organization-Id header).
CREATE TABLE webhook_messages (
  id bigserial PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  endpoint_id text COLLATE "C" NOT NULL,
  event_id text COLLATE "C" NOT NULL,
  event_type text NOT NULL,
  outbox_event_id bigint NOT NULL,
  body bytea NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz(6) NOT NULL DEFAULT now(),
  lease_until timestamptz(6),
  last_status_code integer,
  last_error text,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now(),
  delivered_at timestamptz(6),
  CONSTRAINT webhook_messages_status_check CHECK (status IN ('pending', 'delivering', 'delivered', 'dead'))
);
CREATE UNIQUE INDEX webhook_messages_event_id_key ON webhook_messages (event_id);
-- A fan-out retried after a crash cannot queue an event twice for one endpoint.
CREATE UNIQUE INDEX webhook_messages_endpoint_id_outbox_event_id_key ON webhook_messages (endpoint_id, outbox_event_id);
CREATE INDEX webhook_messages_organization_id_id_idx ON webhook_messages (organization_id, id);
-- The worker's queue: the head of each endpoint's queue is its lowest id not yet finished.
CREATE INDEX webhook_messages_queue_idx ON webhook_messages (organization_id, endpoint_id, id) WHERE status IN ('pending', 'delivering');
CREATE INDEX webhook_messages_dead_idx ON webhook_messages (organization_id, endpoint_id, id) WHERE status = 'dead';

-- Every attempt, kept LATCHKEY_WEBHOOK_LOG_DAYS (default 14).
CREATE TABLE webhook_delivery_attempts (
  id bigserial PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  endpoint_id text COLLATE "C" NOT NULL,
  message_id bigint NOT NULL,
  event_id text COLLATE "C" NOT NULL,
  attempt integer NOT NULL,
  status_code integer,
  latency_ms integer NOT NULL,
  error text,
  next_attempt_at timestamptz(6),
  at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX webhook_delivery_attempts_organization_id_endpoint_id_at_idx ON webhook_delivery_attempts (organization_id, endpoint_id, at);
CREATE INDEX webhook_delivery_attempts_event_id_idx ON webhook_delivery_attempts (event_id);
CREATE INDEX webhook_delivery_attempts_at_idx ON webhook_delivery_attempts (at);

-- Wakes the webhook workers (LISTEN latchkey_webhooks) when an activity's event commits: a
-- statement-level trigger, and PostgreSQL folds repeated notifications of one transaction into one.
CREATE FUNCTION latchkey_notify_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('latchkey_webhooks', 'outbox');
  RETURN NULL;
END
$$;
CREATE TRIGGER outbox_events_notify_webhooks AFTER INSERT ON outbox_events FOR EACH STATEMENT EXECUTE FUNCTION latchkey_notify_webhooks();
