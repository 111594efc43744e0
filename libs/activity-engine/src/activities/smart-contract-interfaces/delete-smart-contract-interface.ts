/**
 * delete_smart_contract_interface — removes an uploaded interface. From then on a policy reading
 * the decoded calls of that contract finds the fields missing, and errors (deny).
 */
import { AppError, DELETE_SMART_CONTRACT_INTERFACE_ACTIVITY, ZDeleteSmartContractInterfaceIntentSchema, type TDeleteSmartContractInterfaceIntent } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';

export const deleteSmartContractInterface: TActivityDefinition<TDeleteSmartContractInterfaceIntent, { smartContractInterfaceId: string }> = {
  ...DELETE_SMART_CONTRACT_INTERFACE_ACTIVITY,
  onFailure: 'reject',
  params: ZDeleteSmartContractInterfaceIntentSchema,
  async handle(ctx, p) {
    if (!(await ctx.tx.smartContractInterfaces.remove(ctx.organizationId, p.smartContractInterfaceId))) {
      throw new AppError('NOT_FOUND', `no smart contract interface ${p.smartContractInterfaceId} in organization ${ctx.organizationId}`, { field: 'smartContractInterfaceId' });
    }
    return { smartContractInterfaceId: p.smartContractInterfaceId };
  },
};
