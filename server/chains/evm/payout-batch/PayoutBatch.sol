// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// Pays a payout batch's items of one token in one transaction, from the caller's own tokens: the
/// merchant's wallet approves this contract for the batch's total, then calls pay(). Each transfer
/// goes straight from the caller to the recipient (transferFrom(msg.sender, ...)); the contract
/// holds nothing, has no owner and nothing to upgrade, so nobody can move another wallet's tokens
/// through it, and an allowance left over can be spent only by the wallet that gave it, calling
/// pay() itself. SafeERC20 accepts tokens whose transfer returns nothing (Ethereum's USDT).
contract PayoutBatch {
    using SafeERC20 for IERC20;

    /// One per item, with the item's tag, so the service ties each transfer to its item.
    event Paid(bytes32 indexed tag, address indexed token, address indexed to, uint256 amount);

    /// `to`, `amounts` and `tags` must be as long as each other.
    error LengthMismatch();

    function pay(IERC20 token, address[] calldata to, uint256[] calldata amounts, bytes32[] calldata tags)
        external
    {
        uint256 count = to.length;
        if (amounts.length != count || tags.length != count) revert LengthMismatch();
        for (uint256 i = 0; i < count; ++i) {
            token.safeTransferFrom(msg.sender, to[i], amounts[i]);
            emit Paid(tags[i], address(token), to[i], amounts[i]);
        }
    }
}
