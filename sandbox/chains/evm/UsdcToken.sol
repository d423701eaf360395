// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ERC3009} from "@openzeppelin/contracts/token/ERC20/extensions/draft-ERC3009.sol";

/// A USDC-like token for the local EVM chains: ERC-20 with EIP-3009 transferWithAuthorization
/// (OpenZeppelin's ERC-3009 draft), the EIP-712 domain of the name and version given (readable
/// through EIP-5267 eip712Domain() and version(), as Circle's USDC has), 6 decimals by default.
/// Anyone may mint: it stands in for USDC in tests and the sandbox only.
contract UsdcToken is ERC3009 {
    uint8 private immutable _decimals;
    string private _version;

    constructor(string memory name_, string memory symbol_, string memory version_, uint8 decimals_)
        ERC20(name_, symbol_)
        EIP712(name_, version_)
    {
        _decimals = decimals_;
        _version = version_;
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    function version() external view returns (string memory) {
        return _version;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
