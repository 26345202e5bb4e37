import { Result } from "effect"
import { keccak256 } from "./internal/Keccak256.ts"
import { type CryptoNetwork, isEvmNetwork } from "./Network.ts"

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/u
const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const SOLANA_KEY_BYTES = 32

/** The EIP-55 checksummed form of a 20-byte hex address (`0x` and 40 hex digits, any case). */
export const toChecksumAddress = (address: string): string => {
  const lower = address.slice(2).toLowerCase()
  const hash = keccak256(new TextEncoder().encode(lower))
  let out = "0x"
  for (let i = 0; i < lower.length; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0x0f
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!
  }
  return out
}

/**
 * `text` as an EVM address in its EIP-55 form, or undefined: `0x` and 40 hex digits, all in one case or mixed in
 * exactly the checksum's case (as a contract address is written in configuration).
 */
export const checksummedEvmAddress = (text: string): string | undefined => {
  if (!HEX_ADDRESS.test(text)) return undefined
  const checksummed = toChecksumAddress(text)
  const digits = text.slice(2)
  return digits === digits.toLowerCase() || digits === digits.toUpperCase() || text === checksummed
    ? checksummed
    : undefined
}

/** The bytes a base58 (Bitcoin alphabet) text stands for; none when a character is outside the alphabet. */
export const decodeBase58 = (text: string): Uint8Array | undefined => {
  let value = 0n
  for (const char of text) {
    const digit = BASE58_ALPHABET.indexOf(char)
    if (digit < 0) return undefined
    value = value * 58n + BigInt(digit)
  }
  const bytes: Array<number> = []
  while (value > 0n) {
    bytes.unshift(Number(value & 0xffn))
    value >>= 8n
  }
  let leadingZeros = 0
  while (leadingZeros < text.length && text[leadingZeros] === "1") leadingZeros++
  return Uint8Array.from([...new Array<number>(leadingZeros).fill(0), ...bytes])
}

const evmAddress = (address: string): Result.Result<string, string> => {
  if (!HEX_ADDRESS.test(address)) {
    return Result.fail(
      decodeBase58(address)?.length === SOLANA_KEY_BYTES
        ? "a Solana address is not an address on an EVM network"
        : "expected 0x and 40 hexadecimal digits"
    )
  }
  const checksummed = toChecksumAddress(address)
  return address === checksummed
    ? Result.succeed(checksummed)
    : Result.fail("the EIP-55 checksum does not match: give the address in its checksummed mixed case")
}

const solanaAddress = (address: string): Result.Result<string, string> => {
  if (HEX_ADDRESS.test(address)) return Result.fail("an EVM address is not a Solana address")
  const bytes = decodeBase58(address)
  if (bytes === undefined) return Result.fail("expected base58 (a character is not in the base58 alphabet)")
  if (bytes.length !== SOLANA_KEY_BYTES) {
    return Result.fail(`expected a ${SOLANA_KEY_BYTES}-byte public key in base58, got ${bytes.length} bytes`)
  }
  return Result.succeed(address)
}

/**
 * An address as a destination on `network` stores it, or why it is not one: on EVM networks `0x` and 40 hex digits whose
 * case is exactly the EIP-55 checksum (all-lower or all-upper digits are refused unless that is the checksummed form);
 * on Solana a base58 text of exactly 32 bytes, kept as given (base58 has one text per byte string).
 */
export const validateAddress = (network: CryptoNetwork, address: string): Result.Result<string, string> =>
  isEvmNetwork(network) ? evmAddress(address) : solanaAddress(address)
