// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.37;

/// @title Latchkey gas station: the EIP-7702 delegation target of a sponsored account.
/// @notice Runs in the account's own context (address(this) is the account). `execute` makes one
/// call from the account, but only with the account's own signature (EIP-712) over the chain, the
/// account, the call, a nonce and a deadline: whoever submits the transaction (Latchkey's relayer,
/// which pays the gas) can neither change the call nor replay it. The account's ETH moves only as
/// the signed `value` says; the relayer pays gas and nothing else.
contract LatchkeyGasStation {
    /// keccak256("latchkey.gas-station.nonce") - 1: a slot no Solidity layout starts at, so another
    /// delegate this account used before cannot have left a value here by accident.
    bytes32 private constant NONCE_SLOT = 0x5c8de03e57aa25910c4c877fcbb774ee550363bb75a5c7f41660cdf6c536d219;

    bytes32 private constant DOMAIN_TYPEHASH = keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant EXECUTE_TYPEHASH = keccak256("Execute(address to,uint256 value,bytes data,uint256 nonce,uint256 deadline)");
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    error Expired(uint256 deadline);
    error BadNonce(uint256 expected);
    error BadSignature();

    /// @notice The next nonce `execute` accepts.
    function gasStationNonce() public view returns (uint256 n) {
        bytes32 slot = NONCE_SLOT;
        assembly {
            n := sload(slot)
        }
    }

    /// @notice Calls `to` with `value` and `data` from this account, if the account signed exactly that.
    /// @dev A failed call reverts with the callee's own revert data, so its reason reaches the receipt.
    function execute(address to, uint256 value, bytes calldata data, uint256 nonce, uint256 deadline, bytes calldata signature) external returns (bytes memory) {
        if (block.timestamp > deadline) revert Expired(deadline);
        uint256 current = gasStationNonce();
        if (nonce != current) revert BadNonce(current);
        _checkSignature(_digest(to, value, keccak256(data), nonce, deadline), signature);
        bytes32 slot = NONCE_SLOT;
        assembly {
            sstore(slot, add(current, 1))
        }
        (bool ok, bytes memory ret) = to.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        return ret;
    }

    /// @dev The EIP-712 digest of Execute{to, value, data, nonce, deadline} for this account on this chain.
    function _digest(address to, uint256 value, bytes32 dataHash, uint256 nonce, uint256 deadline) private view returns (bytes32) {
        bytes32 domain = keccak256(abi.encode(DOMAIN_TYPEHASH, keccak256("LatchkeyGasStation"), keccak256("1"), block.chainid, address(this)));
        bytes32 structHash = keccak256(abi.encode(EXECUTE_TYPEHASH, to, value, dataHash, nonce, deadline));
        return keccak256(abi.encodePacked("\x19\x01", domain, structHash));
    }

    /// @dev Reverts unless `signature` (r ‖ s ‖ v, low s) over `digest` is this account's own.
    function _checkSignature(bytes32 digest, bytes calldata signature) private view {
        if (signature.length != 65) revert BadSignature();
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (uint256(s) > HALF_ORDER) revert BadSignature();
        address signer = ecrecover(digest, v, r, s);
        if (signer == address(0) || signer != address(this)) revert BadSignature();
    }

    /// @notice The account still receives ETH while delegated.
    receive() external payable {}
}
