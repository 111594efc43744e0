/**
 * create_smart_contract_interface — uploads an Ethereum ABI or a Solana Anchor IDL for one
 * contract address / program id, so policies can read the calls made to it
 * (`eth.tx.function_name`, `eth.tx.contract_call_args[…]`, `solana.tx.instructions[…]
 * .parsed_instruction_data`). The interface is parsed before anything is written (an interface
 * that does not parse is a 400, no activity); one interface per contract and organization (a
 * second is a 409: delete the first to replace it — interfaces are immutable, so a policy never
 * reads a call through an interface that changed under it).
 */
import { newId } from '@latchkey/crypto';
import {
  AppError,
  CREATE_SMART_CONTRACT_INTERFACE_ACTIVITY,
  ZCreateSmartContractInterfaceIntentSchema,
  canonicalContractAddress,
  type TCreateSmartContractInterfaceIntent,
} from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { parseSmartContractInterface } from '../../engine/contract-interfaces.js';

export const createSmartContractInterface: TActivityDefinition<TCreateSmartContractInterfaceIntent, { smartContractInterfaceId: string }> = {
  ...CREATE_SMART_CONTRACT_INTERFACE_ACTIVITY,
  onFailure: 'reject',
  params: ZCreateSmartContractInterfaceIntentSchema,
  validate(p) {
    parseSmartContractInterface(p.type, p.smartContractInterface);
  },
  async handle(ctx, p) {
    const id = newId();
    const contractAddress = canonicalContractAddress(p.type, p.smartContractAddress);
    const created = await ctx.tx.smartContractInterfaces.create(
      { id, organizationId: ctx.organizationId, contractAddress, type: p.type, interface: p.smartContractInterface, label: p.label, notes: p.notes ?? '' },
      ctx.now,
    );
    if (!created) {
      throw new AppError('CONFLICT', `organization ${ctx.organizationId} already has a smart contract interface for ${contractAddress}; delete it first to replace it`, {
        field: 'smartContractAddress',
      });
    }
    return { smartContractInterfaceId: id };
  },
};
