-- 0020: sending transactions and gas sponsorship (issue 15 §2). One row per eth_send_transaction: the signed
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
  -- Who signs and pays the transaction on the chain: from_address, or the relayer when sponsored.
  signer_address text NOT NULL,
  nonce numeric(78, 0) NOT NULL,
  sponsored boolean NOT NULL DEFAULT false,
  -- LATCHKEY_GAS_PRICE_USD of the chain's native token when a sponsored send was made: its ledger
  -- entry is priced with it, so every process prices a send the same way.
  native_price_usd numeric(38, 18),
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

-- The gas window of a billing (top-level) organization: its own limit and each sub-organization's,
-- over a sliding window. Limits are USD with 6 decimals, compared exactly (numeric, bigint in TS).
CREATE TABLE gas_usage_configs (
  organization_id text COLLATE "C" PRIMARY KEY,
  id text COLLATE "C" NOT NULL UNIQUE,
  org_window_limit_usd numeric(20, 6) NOT NULL,
  sub_org_window_limit_usd numeric(20, 6) NOT NULL,
  window_duration_minutes integer NOT NULL CHECK (window_duration_minutes BETWEEN 1 AND 43200),
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now()
);

-- The relayer: the one account that submits sponsored transactions and pays their gas (the same
-- address on every chain). Its key is sealed by the vault like any key; Prisma never sees it open.
CREATE TABLE gas_relayers (
  id text PRIMARY KEY CHECK (id = 'default'),
  address text NOT NULL,
  public_key text NOT NULL,
  sealed_private_key text NOT NULL,
  created_at timestamptz(6) NOT NULL DEFAULT now()
);
