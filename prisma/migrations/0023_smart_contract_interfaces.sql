-- 0023: smart contract interfaces (issue 16 §5). An organization's uploaded Ethereum ABIs and
-- Solana Anchor IDLs, one per contract address / program id: Ethereum addresses are stored
-- lowercase (they match eth.tx.to), Solana program ids as written (base58 is case-sensitive), so
-- the unique index makes a second upload for the same contract a conflict whatever its casing.
-- Immutable once written (there is no update activity): the policy engine may cache a parsed
-- interface by its id. Read by sign_transaction's policy facts only when a policy condition reads a
-- decoded call, by (organization_id, contract_address).
CREATE TABLE smart_contract_interfaces (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL,
  contract_address text COLLATE "C" NOT NULL,
  type text NOT NULL CHECK (type IN ('SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM', 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA')),
  interface text NOT NULL,
  label text NOT NULL,
  notes text NOT NULL DEFAULT '',
  created_at timestamptz(6) NOT NULL DEFAULT now(),
  updated_at timestamptz(6) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX smart_contract_interfaces_org_address ON smart_contract_interfaces (organization_id, contract_address);
