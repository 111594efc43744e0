/**
 * Smart contract interfaces for the policy engine (issue 16 §5): parsing an uploaded ABI / IDL,
 * and looking up the interfaces of the contracts a transaction calls, for `policyFacts`.
 *
 * Cost: the lookup runs only when a policy condition reads a decoded call (`TConditionNeeds`), so
 * a signature under policies that never mention them pays nothing; when it runs, it is one indexed
 * query (organization, contract address) outside any transaction. Interfaces are immutable (no
 * update activity; a replacement is a delete and a new id), so a parsed one is cached by its id:
 * a 400 kB ABI is parsed once per process, not once per signature.
 */
import { SigningError, ethereumTransactionFields, parseAnchorIdl, parseEthereumAbi, solanaTransactionFields, type TAnchorIdl, type TEthereumAbi } from '@latchkey/crypto';
import { AppError, type TSmartContractInterfaceType } from '@latchkey/domain';
import type { TRepositories } from '@latchkey/persistence';
import type { TPolicyFacts } from '@latchkey/policy';

type TParsedInterface = TEthereumAbi | TAnchorIdl;

/**
 * Parses an interface of `type` with the one reader the policy engine decodes calls with, so an
 * interface accepted here is one the engine can use.
 * @throws AppError BAD_REQUEST naming `smartContractInterface` and what does not parse
 */
export function parseSmartContractInterface(type: TSmartContractInterfaceType, json: string): TParsedInterface {
  try {
    return type === 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM' ? parseEthereumAbi(json) : parseAnchorIdl(json);
  } catch (e) {
    if (!(e instanceof SigningError)) throw e;
    const what = type === 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM' ? 'an Ethereum ABI' : 'a Solana Anchor IDL';
    throw new AppError('BAD_REQUEST', `smartContractInterface is not ${what}: ${e.message}`, { field: 'smartContractInterface' });
  }
}

/** Parsed interfaces by id, least recently used first; bounded (an ABI may be 400 kB of JSON). */
const PARSED_CACHE_SIZE = 64;
const parsedCache = new Map<string, TParsedInterface | null>();

function parsedInterface(row: { id: string; type: string; interface: string }): TParsedInterface | null {
  const hit = parsedCache.get(row.id);
  if (hit !== undefined) {
    parsedCache.delete(row.id);
    parsedCache.set(row.id, hit);
    return hit;
  }
  let parsed: TParsedInterface | null;
  try {
    parsed = parseSmartContractInterface(row.type as TSmartContractInterfaceType, row.interface);
  } catch (e) {
    // Validated when uploaded; only a row written outside the API can fail here, and then the
    // contract simply has no usable interface (its fields stay missing: deny).
    if (!(e instanceof AppError)) throw e;
    parsed = null;
  }
  parsedCache.set(row.id, parsed);
  if (parsedCache.size > PARSED_CACHE_SIZE) parsedCache.delete(parsedCache.keys().next().value!);
  return parsed;
}

/** The contracts a transaction calls: an Ethereum call's `to` (lowercase), a Solana transaction's programs. */
function calledContracts(tx: { type: string; unsignedTransaction: string }): string[] {
  try {
    if (tx.type === 'TRANSACTION_TYPE_ETHEREUM') {
      const f = ethereumTransactionFields(tx.unsignedTransaction);
      return f.to !== '' && f.data.length >= 10 ? [f.to] : [];
    }
    if (tx.type === 'TRANSACTION_TYPE_SOLANA') return solanaTransactionFields(tx.unsignedTransaction).programKeys;
  } catch (e) {
    // A transaction that does not parse has no eth.tx / solana.tx at all; nothing to decode.
    if (e instanceof SigningError) return [];
    throw e;
  }
  return [];
}

/** `contractInterfaces` of the policy facts: the organization's interfaces for the contracts `tx` calls. */
export async function contractInterfaceFacts(db: TRepositories, organizationId: string, tx: { type: string; unsignedTransaction: string }): Promise<TPolicyFacts> {
  const addresses = calledContracts(tx);
  if (addresses.length === 0) return {};
  const rows = await db.smartContractInterfaces.findByAddresses(organizationId, addresses);
  const interfaces = new Map<string, TParsedInterface>();
  for (const row of rows) {
    const parsed = parsedInterface(row);
    if (parsed) interfaces.set(row.contractAddress, parsed);
  }
  return interfaces.size > 0 ? { contractInterfaces: interfaces } : {};
}
