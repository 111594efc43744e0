/**
 * One folder per chain family, each with one parser of its wire format that both the signer and the
 * policy reader (`*TransactionFields`) are built on: a transaction the policy engine approved is
 * the transaction that gets signed, byte for byte and field for field.
 */
export { hashTypedData, parseTypedData, type TTypedData, type TTypedDataField } from './ethereum/eip712.js';
export { decodeRlp, decodeRlpUint, encodeRlp, encodeRlpUint, type TRlpItem } from './ethereum/rlp.js';
export { signEthereumTransaction } from './ethereum/sign.js';
export { decodeRevertReason, encodeEip1559Unsigned, ethereumTransactionHash, type TEip1559Fields } from './ethereum/build-transaction.js';
export { GAS_STATION_INIT_CODE, GAS_STATION_SOLC_VERSION } from './ethereum/gas-station/gas-station-bytecode.js';
export { CREATE2_DEPLOYER, GAS_STATION_NONCE_SLOT, encodeEip7702Unsigned, encodeGasStationExecute, gasStationAddress, gasStationDeployData, gasStationExecuteDigest, signEip7702Authorization, signGasStationCall, type TGasStationCall } from './ethereum/gas-station/gas-station.js';
export { EVM_RPC_URLS_VARIABLE, EvmRpcError, GAS_PRICE_USD_VARIABLE, createEvmChains, createEvmRpc, eip155ChainId, parseEvmRpcUrls, parseGasPricesUsd, rpcQuantity, toRpcQuantity, type TEvmRpc } from './ethereum/json-rpc.js';
export { signSolanaTransaction } from './solana/sign.js';
export { decodeEthereumContractCall, parseEthereumAbi, type TAbiValue, type TEthereumAbi, type TEthereumContractCall } from './ethereum/contract-call.js';
export { decodeAnchorInstruction, parseAnchorIdl, type TAnchorIdl, type TAnchorInstruction, type TIdlValue } from './solana/anchor-idl.js';
export { signBitcoinPsbt } from './bitcoin/psbt.js';
export { ethereumTransactionFields, type TEthereumTransactionFields, type TEthereumTransactionType } from './ethereum/fields.js';
export { SOLANA_ADDRESS_TABLE_LOOKUP, solanaTransactionFields, type TSolanaAccountRef, type TSolanaAddressTableLookup, type TSolanaInstruction, type TSolanaLookupReference, type TSolanaSplTransfer, type TSolanaTransactionFields, type TSolanaTransfer } from './solana/fields.js';
