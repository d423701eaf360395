// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// A stand-in for TRON's USDT (TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t), written to behave as that
/// contract does where a payment gateway can be fooled:
/// - 6 decimals, symbol "USDT";
/// - `transfer` and `transferFrom` are declared `returns (bool)` but answer false even when the
///   tokens moved: the deployed contract is Solidity 0.4 code whose functions fall off their end
///   without `return`, so only the Transfer log says that a payment happened;
/// - a `transferFrom` of 0 succeeds for any caller (an allowance of 0 covers 0) and logs a Transfer
///   from the victim: how address-poisoning spam is sent;
/// - calldata beyond the arguments is ignored (no payload-size check), so a tag appended to
///   `transfer`'s calldata stays on chain and the call still succeeds;
/// - a transfer beyond the balance reverts without a reason (SafeMath `assert`/`require` in 0.4).
/// Anyone may mint: the local chain's faucet.
contract TronUsdt {
    string public constant name = "Tether USD";
    string public constant symbol = "USDT";
    uint8 public constant decimals = 6;
    uint256 public totalSupply;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function mint(address to, uint256 amount) external {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return false;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value);
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return false;
    }

    function _move(address from, address to, uint256 value) private {
        require(to != address(0));
        uint256 balance = balanceOf[from];
        require(balance >= value);
        unchecked {
            balanceOf[from] = balance - value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
