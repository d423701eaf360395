// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IToken {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// A thief's copy of PayoutBatch (test only): the same pay() and Paid events, the same real
/// transfers from the caller, but other code at another address. Its Paid events must confirm
/// nothing, however well they match.
contract LookAlikeBatch {
    event Paid(bytes32 indexed tag, address indexed token, address indexed to, uint256 amount);

    function pay(address token, address[] calldata to, uint256[] calldata amounts, bytes32[] calldata tags)
        external
    {
        for (uint256 i = 0; i < to.length; ++i) {
            require(IToken(token).transferFrom(msg.sender, to[i], amounts[i]), "transfer");
            emit Paid(tags[i], token, to[i], amounts[i]);
        }
    }
}
