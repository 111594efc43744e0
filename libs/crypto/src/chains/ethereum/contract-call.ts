/**
 * Ethereum smart contract interfaces (issue 16 §5): an uploaded ABI is parsed once here, and the
 * calldata of a transaction to that contract is decoded with it for the policy fields
 * `eth.tx.function_name`, `eth.tx.function_signature` and `eth.tx.contract_call_args`.
 *
 * The ABI is read by ethers' `Fragment.from`, entry by entry: ethers' `Interface.from` silently
 * drops an entry it cannot read (with a console warning), which would make a typo in an ABI an
 * unenforced rule instead of a refusal. Decoding is canonical or nothing: the decoded arguments are
 * re-encoded and must give back the calldata byte for byte, so trailing bytes, dirty padding
 * (ethers masks a `uint8`'s high bits, Solidity reverts) or odd offsets make the call undecodable,
 * and a policy reading the fields errors (deny) rather than seeing a value the contract would not.
 */
import { Fragment, FunctionFragment, Interface, type ParamType, type Result } from 'ethers';
import { SigningError } from '../../signing/signing-error.js';
import { assertJsonDepth } from '../json-depth.js';

/** An ABI that parsed: the functions a transaction to the contract can call, by 4-byte selector. */
export interface TEthereumAbi {
  readonly kind: 'ethereum-abi';
  /** Functions by lowercase `0x` selector. */
  readonly functions: ReadonlyMap<string, FunctionFragment>;
  readonly iface: Interface;
}

/** A contract call decoded with an uploaded ABI. Values: the policy language's (see `abiValue`). */
export interface TEthereumContractCall {
  functionName: string;
  /** The 4-byte selector, lowercase `0x` hex (Turnkey's `function_signature`). */
  functionSignature: string;
  /** Arguments by name (an unnamed one by its position, `'0'`, `'1'`…). */
  args: Map<string, unknown>;
}

/** A value in the policy language: bigint, string, boolean, a list of values, or a struct (Map). */
export type TAbiValue = bigint | string | boolean | TAbiValue[] | Map<string, TAbiValue>;

/**
 * Parses an ABI given as JSON text (an array of fragments, as solc and Etherscan publish it).
 * @throws {SigningError} MALFORMED_INPUT naming the entry that does not parse, or two functions with one selector
 */
export function parseEthereumAbi(json: string): TEthereumAbi {
  assertJsonDepth(json, 'the ABI');
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new SigningError('MALFORMED_INPUT', `the ABI is not JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(raw)) throw new SigningError('MALFORMED_INPUT', 'an Ethereum ABI is a JSON array of fragments ({"type":"function","name":…,"inputs":[…]})');
  if (raw.length === 0) throw new SigningError('MALFORMED_INPUT', 'the ABI has no entries');
  const fragments: Fragment[] = raw.map((entry, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new SigningError('MALFORMED_INPUT', `ABI entry ${i} is not an object`);
    try {
      return Fragment.from(entry as Record<string, unknown>);
    } catch (e) {
      throw new SigningError('MALFORMED_INPUT', `ABI entry ${i}${nameOf(entry)} does not parse: ${shortEthersMessage(e)}`);
    }
  });
  const functions = new Map<string, FunctionFragment>();
  fragments.forEach((f, i) => {
    if (!(f instanceof FunctionFragment)) return;
    const taken = functions.get(f.selector);
    if (taken) throw new SigningError('MALFORMED_INPUT', `ABI entry ${i} (${f.format('sighash')}) has the selector ${f.selector} of ${taken.format('sighash')}`);
    functions.set(f.selector, f);
  });
  return { kind: 'ethereum-abi', functions, iface: new Interface(fragments) };
}

/**
 * Decodes calldata (hex, `0x` optional) with an ABI.
 * @returns undefined when the calldata is not a canonical call of one of the ABI's functions
 */
export function decodeEthereumContractCall(abi: TEthereumAbi, calldata: string): TEthereumContractCall | undefined {
  const hex = (calldata.startsWith('0x') || calldata.startsWith('0X') ? calldata.slice(2) : calldata).toLowerCase();
  if (hex.length < 8 || hex.length % 2 !== 0 || !/^[0-9a-f]*$/.test(hex)) return undefined;
  const fn = abi.functions.get(`0x${hex.slice(0, 8)}`);
  if (!fn) return undefined;
  let result: Result;
  try {
    result = abi.iface.decodeFunctionData(fn, `0x${hex}`);
    if (abi.iface.encodeFunctionData(fn, result).slice(2).toLowerCase() !== hex) return undefined;
  } catch {
    return undefined;
  }
  const args = new Map<string, unknown>();
  fn.inputs.forEach((param, i) => args.set(param.name === '' ? String(i) : param.name, abiValue(param, result[i])));
  return { functionName: fn.name, functionSignature: fn.selector, args };
}

/**
 * A decoded ABI value in the policy language: integers as bigint, addresses lowercase `0x` (as
 * `eth.tx.to`), bytes as lowercase `0x` hex, arrays as lists, tuples as structs by component name.
 */
function abiValue(param: ParamType, value: unknown): TAbiValue {
  if (param.isArray()) return (value as unknown[]).map((v) => abiValue(param.arrayChildren, v));
  if (param.isTuple()) {
    const struct = new Map<string, TAbiValue>();
    param.components.forEach((c, i) => struct.set(c.name === '' ? String(i) : c.name, abiValue(c, (value as unknown[])[i])));
    return struct;
  }
  switch (typeof value) {
    case 'bigint':
    case 'boolean':
      return value;
    case 'string':
      return param.baseType === 'address' || param.baseType.startsWith('bytes') ? value.toLowerCase() : value;
    default:
      throw new TypeError(`unexpected decoded ${param.type} value`);
  }
}

function nameOf(entry: object): string {
  const name = (entry as { name?: unknown }).name;
  return typeof name === 'string' && name.length > 0 ? ` (${name.slice(0, 64)})` : '';
}

/** ethers' messages end with `(argument=…, value=…, code=…, version=…)`: the reason is the part before. */
function shortEthersMessage(e: unknown): string {
  const message = e instanceof Error ? ((e as { shortMessage?: string }).shortMessage ?? e.message) : String(e);
  return message.slice(0, 200);
}
