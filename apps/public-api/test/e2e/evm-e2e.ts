/** What the e2e files that run against anvil share (send-transaction, gas-sponsorship, nonces-and-undelegation). */
import type { TAnvil } from '@latchkey/testkit';

/** anvil's chain. sdk-types lists mainnets and testnets only; Latchkey accepts any eip155 chain it is configured for. */
export const LOCAL = 'eip155:31337' as 'eip155:1';

/** The receipt fields these tests read, as the node answers them (hex quantities). */
export interface TReceipt {
  status: string;
  from: string;
  to: string | null;
  type: string;
  gasUsed: string;
  effectiveGasPrice: string;
  blockNumber: string;
  contractAddress: string | null;
}

export const receiptOf = (anvil: TAnvil, hash: string): Promise<TReceipt> => anvil.rpc<TReceipt>('eth_getTransactionReceipt', [hash]);

/** The SEND_TRANSACTION_STATUS_UPDATES deliveries of one send, once both (BROADCASTING, INCLUDED) arrived or 30 s passed. */
export async function statusDeliveries<T extends { body: Record<string, unknown> }>(deliveries: readonly T[], sendTransactionStatusId: string): Promise<T[]> {
  const deadline = Date.now() + 30_000;
  const forSend = () => deliveries.filter((d) => d.body['sendTransactionStatusId'] === sendTransactionStatusId);
  while (forSend().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return forSend();
}
