import { assert, describe, it } from "@effect/vitest"
import {
  DEFAULT_CRYPTO_FEES,
  decodeBase58,
  quoteFees,
  serviceFeeOf,
  toChecksumAddress,
  tokenBaseUnits,
  validateAddress
} from "@svc/domain/model"
import { Result } from "effect"

/** The test addresses of EIP-55 itself: all-caps, all-lower and mixed-case checksummed forms. */
const EIP55_VECTORS = [
  "0x52908400098527886E0F7030069857D2E4169EE7",
  "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
  "0xde709f2102306220921060314715629080e2fb77",
  "0x27b1fdb04752bbc536007a920d24acb045561c26",
  "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
  "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb"
]

const USDC_MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"

const refusal = (result: Result.Result<string, string>) => {
  assert.isTrue(Result.isFailure(result), `refused: ${JSON.stringify(result)}`)
  return Result.isFailure(result) ? result.failure : ""
}

describe("EIP-55 addresses (a hand-written Keccak-256)", () => {
  it("checksums every test vector of the EIP to itself, from any case", () => {
    for (const address of EIP55_VECTORS) {
      assert.strictEqual(toChecksumAddress(address), address)
      assert.strictEqual(toChecksumAddress(`0x${address.slice(2).toLowerCase()}`), address)
      assert.strictEqual(toChecksumAddress(`0x${address.slice(2).toUpperCase()}`), address)
      for (const network of ["ethereum", "base", "polygon", "arbitrum"] as const) {
        assert.deepStrictEqual(validateAddress(network, address), Result.succeed(address))
      }
    }
  })

  it("refuses a wrong checksum, and an all-lower or all-upper address that is not its checksummed form", () => {
    const mixed = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
    assert.match(refusal(validateAddress("ethereum", "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")), /checksum/u)
    assert.match(refusal(validateAddress("base", mixed.toLowerCase())), /checksum/u)
    assert.match(refusal(validateAddress("polygon", `0x${mixed.slice(2).toUpperCase()}`)), /checksum/u)
  })

  it("refuses what is not 0x and 40 hex digits, and a Solana address", () => {
    for (const bad of [
      "",
      "0x",
      "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe"
    ]) {
      assert.match(refusal(validateAddress("ethereum", bad)), /40 hexadecimal digits/u)
    }
    assert.match(refusal(validateAddress("ethereum", "0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")), /hexadecimal/u)
    assert.match(refusal(validateAddress("arbitrum", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg")), /hexadecimal/u)
    assert.match(refusal(validateAddress("arbitrum", USDC_MINT)), /Solana address/u)
  })
})

describe("Solana addresses (base58, 32 bytes)", () => {
  it("accepts 32-byte base58 keys as given", () => {
    for (const key of [USDC_MINT, "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", "11111111111111111111111111111111"]) {
      assert.strictEqual(decodeBase58(key)?.length, 32)
      assert.deepStrictEqual(validateAddress("solana", key), Result.succeed(key))
    }
  })

  it("decodes base58 with its leading zero bytes", () => {
    assert.deepStrictEqual(decodeBase58("1112"), Uint8Array.from([0, 0, 0, 1]))
    assert.deepStrictEqual(decodeBase58("5R"), Uint8Array.from([1, 0]))
    assert.strictEqual(decodeBase58("0OIl"), undefined)
  })

  it("refuses a wrong length, characters outside base58, and an EVM address", () => {
    assert.match(refusal(validateAddress("solana", "1111111111111111111111111111111")), /got 31 bytes/u)
    assert.match(refusal(validateAddress("solana", `${USDC_MINT}z`)), /got 33 bytes/u)
    assert.match(refusal(validateAddress("solana", "3yZe7d")), /32-byte/u)
    assert.match(refusal(validateAddress("solana", "")), /got 0 bytes/u)
    for (const bad of [
      `${USDC_MINT.slice(0, -1)}0`,
      `${USDC_MINT.slice(0, -1)}O`,
      `${USDC_MINT.slice(0, -1)}I`,
      `${USDC_MINT.slice(0, -1)}l`
    ]) {
      assert.match(refusal(validateAddress("solana", bad)), /base58 alphabet/u)
    }
    assert.match(refusal(validateAddress("solana", EIP55_VECTORS[4]!)), /EVM address/u)
  })
})

describe("quote fees", () => {
  it("charges max(minimum, ceil(amount × bps / 10000)), exactly", () => {
    assert.strictEqual(serviceFeeOf(DEFAULT_CRYPTO_FEES, 1), 100, "the USD 1.00 minimum")
    assert.strictEqual(serviceFeeOf(DEFAULT_CRYPTO_FEES, 20_000), 100, "50 bps of 200.00 is the minimum")
    assert.strictEqual(serviceFeeOf(DEFAULT_CRYPTO_FEES, 20_001), 101, "100.005 rounds up")
    assert.strictEqual(serviceFeeOf(DEFAULT_CRYPTO_FEES, 100_000), 500)
    assert.strictEqual(serviceFeeOf(DEFAULT_CRYPTO_FEES, 100_199), 501)
    assert.strictEqual(serviceFeeOf(DEFAULT_CRYPTO_FEES, Number.MAX_SAFE_INTEGER), Math.ceil(9007199254740991 / 200))
    const custom = { ...DEFAULT_CRYPTO_FEES, serviceFeeBps: 125, serviceFeeMinimum: 0 }
    assert.strictEqual(serviceFeeOf(custom, 1), 1)
    assert.strictEqual(serviceFeeOf(custom, 800), 10)
    assert.strictEqual(serviceFeeOf(custom, 801), 11)
  })

  it("takes the network's fee and delivers the rest", () => {
    assert.deepStrictEqual(quoteFees(DEFAULT_CRYPTO_FEES, "ethereum", 10_000), {
      serviceFee: 100,
      networkFee: 300,
      amountDelivered: 9_600
    })
    assert.deepStrictEqual(
      (["arbitrum", "base", "polygon", "solana"] as const).map(
        (n) => quoteFees(DEFAULT_CRYPTO_FEES, n, 1_000).networkFee
      ),
      [10, 5, 5, 1]
    )
    assert.strictEqual(quoteFees(DEFAULT_CRYPTO_FEES, "base", 105).amountDelivered, 0)
    assert.strictEqual(quoteFees(DEFAULT_CRYPTO_FEES, "base", 106).amountDelivered, 1)
  })

  it("converts delivered cents to the asset's base units (6 decimals: 10^4 per cent)", () => {
    assert.strictEqual(tokenBaseUnits("USDC", 1), "10000")
    assert.strictEqual(tokenBaseUnits("USDT", 12_345), "123450000")
    assert.strictEqual(tokenBaseUnits("USDC", Number.MAX_SAFE_INTEGER), "90071992547409910000")
  })
})
