/**
 * get_smart_contract_interface and list_smart_contract_interfaces (sdk-server
 * `getSmartContractInterface` / `getSmartContractInterfaces`): an organization's uploaded ABIs and
 * IDLs as `externaldatav1SmartContractInterface`, the interface text exactly as uploaded.
 */
import {
  AppError,
  ZGetSmartContractInterfaceRequestSchema,
  ZGetSmartContractInterfacesRequestSchema,
  toTimestamp,
  type TGetSmartContractInterfaceRequest,
  type TGetSmartContractInterfacesRequest,
  type TSmartContractInterfaceWire,
} from '@latchkey/domain';
import type { TSmartContractInterfaceRow } from '@latchkey/persistence';
import type { TQueryDefinition } from './query-definition.js';

function toWire(row: TSmartContractInterfaceRow): TSmartContractInterfaceWire {
  return {
    organizationId: row.organizationId,
    smartContractInterfaceId: row.id,
    smartContractAddress: row.contractAddress,
    smartContractInterface: row.interface,
    type: row.type,
    label: row.label,
    notes: row.notes,
    createdAt: toTimestamp(row.createdAt),
    updatedAt: toTimestamp(row.updatedAt),
  };
}

export const getSmartContractInterface: TQueryDefinition<TGetSmartContractInterfaceRequest, { smartContractInterface: TSmartContractInterfaceWire }> = {
  path: 'get_smart_contract_interface',
  request: ZGetSmartContractInterfaceRequestSchema,
  async handle(ctx, req) {
    const row = await ctx.store.smartContractInterfaces.findById(ctx.organization.id, req.smartContractInterfaceId);
    if (!row) throw new AppError('NOT_FOUND', `no smart contract interface ${req.smartContractInterfaceId} in organization ${ctx.organization.id}`, { field: 'smartContractInterfaceId' });
    return { smartContractInterface: toWire(row) };
  },
};

export const listSmartContractInterfaces: TQueryDefinition<TGetSmartContractInterfacesRequest, { smartContractInterfaces: TSmartContractInterfaceWire[] }> = {
  path: 'list_smart_contract_interfaces',
  request: ZGetSmartContractInterfacesRequestSchema,
  async handle(ctx) {
    return { smartContractInterfaces: (await ctx.store.smartContractInterfaces.list(ctx.organization.id)).map(toWire) };
  },
};
