-- 0020: sending transactions (issue 15 §2). One row per eth_send_transaction: the signed
-- transaction as broadcast (so the receipt watcher can re-send one a node dropped), its hash, and
-- its status (BROADCASTING, then INCLUDED or FAILED). Written by the activity's transaction;
-- advanced by the webhook worker's receipt watcher, which writes each change's
-- SEND_TRANSACTION_STATUS_UPDATES outbox event in the same statement's transaction.
CREATE TABLE send_transaction_statuses (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  activity_id text COLLATE "C" NOT NULL,
  caip2 text NOT NULL,
  from_address text NOT NULL,
  nonce numeric(78, 0) NOT NULL,
  tx_hash text,
  signed_transaction text,
  status text NOT NULL CHECK (status IN ('BROADCASTING', 'INCLUDED', 'FAILED')),
  error jsonb,
  block_number numeric(78, 0),
  gas_used numeric(78, 0),
  effective_gas_price numeric(78, 0),
  checked_at timestamptz(6),
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE INDEX send_transaction_statuses_org_idx ON send_transaction_statuses (organization_id, created_at);
-- The watcher's work list: only the unfinished rows.
CREATE INDEX send_transaction_statuses_pending_idx ON send_transaction_statuses (checked_at NULLS FIRST) WHERE status = 'BROADCASTING';
