/**
 * Smart contract interfaces (issue 16 §5): an organization's uploaded ABIs / IDLs, one per
 * contract address (stored canonical: Ethereum lowercase, Solana as written — the caller
 * canonicalises). What create/delete_smart_contract_interface write inside their activity's
 * transaction, the get/list queries read, and sign_transaction's policy facts look up by address.
 * The caller validates the interface text (parsed by `@latchkey/crypto`); this layer stores it.
 */
import type { TDb } from '../database.js';

export interface TSmartContractInterfaceRow {
  id: string;
  organizationId: string;
  contractAddress: string;
  type: string;
  interface: string;
  label: string;
  notes: string;
  createdAt: Date;
  updatedAt: Date;
}

export function smartContractInterfaceRepository(db: TDb) {
  return {
    /**
     * Stores a new interface.
     * @returns false when the organization already has one for that address (nothing written)
     */
    async create(row: Omit<TSmartContractInterfaceRow, 'createdAt' | 'updatedAt'>, at: Date): Promise<boolean> {
      // skipDuplicates is INSERT … ON CONFLICT DO NOTHING: a concurrent upload for the same address
      // loses cleanly on the unique index instead of aborting the transaction.
      const { count } = await db.smartContractInterface.createMany({ data: [{ ...row, createdAt: at, updatedAt: at }], skipDuplicates: true });
      return count === 1;
    },
    async findById(organizationId: string, id: string): Promise<TSmartContractInterfaceRow | null> {
      return db.smartContractInterface.findFirst({ where: { organizationId, id } });
    },
    /** The organization's interfaces, oldest first. */
    async list(organizationId: string): Promise<TSmartContractInterfaceRow[]> {
      return db.smartContractInterface.findMany({ where: { organizationId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    },
    /**
     * The interfaces of the given contracts (canonical addresses), without their creation metadata:
     * what the policy engine decodes a transaction's calls with.
     */
    async findByAddresses(organizationId: string, addresses: readonly string[]): Promise<Pick<TSmartContractInterfaceRow, 'id' | 'contractAddress' | 'type' | 'interface'>[]> {
      if (addresses.length === 0) return [];
      return db.smartContractInterface.findMany({ where: { organizationId, contractAddress: { in: [...addresses] } }, select: { id: true, contractAddress: true, type: true, interface: true } });
    },
    /** @returns whether there was such an interface */
    async remove(organizationId: string, id: string): Promise<boolean> {
      const { count } = await db.smartContractInterface.deleteMany({ where: { organizationId, id } });
      return count > 0;
    },
  };
}
export type TSmartContractInterfaceRepository = ReturnType<typeof smartContractInterfaceRepository>;
