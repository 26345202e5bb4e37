import { Result } from "effect"
import { checksummedEvmAddress } from "../crypto/model.ts"
import { textOfBase64 } from "./internal/Base64.ts"
import { centsOfUnits, type X402Asset, x402NetworkOf } from "./Network.ts"
import { X402PaymentInvalid } from "./Payment.ts"

/** The shortest and longest validity the service signs an authorization for, in seconds. */
export const MIN_TIMEOUT_SECONDS = 1
export const MAX_TIMEOUT_SECONDS = 3_600
/** The most a payment may count in budgets, in US cents (a safe integer far above any policy). */
const MAX_CENTS = 1_000_000_000_000n

/** A requirement of a 402 answer the service can pay, read and checked. */
export interface PayableRequirement {
  readonly x402Version: 1 | 2
  readonly resourceUrl: string
  /** `scheme://host[:port]` of the resource: what merchant rules see with `payTo`. */
  readonly origin: string
  readonly network: string
  readonly chainId: number
  readonly asset: X402Asset
  readonly payTo: string
  readonly tokenAmount: bigint
  readonly cents: number
  readonly maxTimeoutSeconds: number
  /** The token's EIP-712 domain name and version (`extra`). */
  readonly domain: { readonly name: string; readonly version: string }
  /** The requirement and the resource as the server sent them: a v2 payload repeats them verbatim. */
  readonly accepted: unknown
  readonly resource: unknown
}

const UNITS = /^[0-9]{1,78}$/u

type Record_ = Readonly<Record<string, unknown>>
const isRecord = (u: unknown): u is Record_ => typeof u === "object" && u !== null && !Array.isArray(u)

const originOf = (url: string): string | undefined => {
  if (!URL.canParse(url)) return undefined
  const parsed = new URL(url)
  return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : undefined
}

/** The 402 answer as an object: given as the decoded JSON, or as the `PAYMENT-REQUIRED` header's base64 value. */
const answerOf = (paymentRequired: unknown): Record_ | undefined => {
  if (isRecord(paymentRequired)) return paymentRequired
  if (typeof paymentRequired !== "string") return undefined
  const text = textOfBase64(paymentRequired)
  if (text === undefined) return undefined
  try {
    const parsed: unknown = JSON.parse(text)
    return isRecord(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

/** One requirement read and checked against what the service supports, or the first field at fault in it. */
const requirementOf = (
  x402Version: 1 | 2,
  raw: unknown,
  path: string,
  assets: ReadonlyArray<X402Asset>
): Result.Result<Omit<PayableRequirement, "resourceUrl" | "origin" | "resource">, X402PaymentInvalid> => {
  const bad = (field: string, message: string) =>
    Result.fail(new X402PaymentInvalid({ field: `${path}.${field}`, message }))
  if (!isRecord(raw)) return Result.fail(new X402PaymentInvalid({ field: path, message: "expected an object" }))
  if (raw.scheme !== "exact") return bad("scheme", "only the `exact` scheme is paid")
  const network = typeof raw.network === "string" ? x402NetworkOf(raw.network, x402Version) : undefined
  if (network === undefined) {
    return bad(
      "network",
      x402Version === 1
        ? "not a network the service pays on (ethereum, base, base-sepolia, polygon)"
        : "not a network the service pays on (eip155:1, 8453, 84532, 137, 42161 or 31337)"
    )
  }
  const assetAddress = typeof raw.asset === "string" ? checksummedEvmAddress(raw.asset) : undefined
  const asset =
    assetAddress === undefined
      ? undefined
      : assets.find((a) => a.chainId === network.chainId && a.address.toLowerCase() === assetAddress.toLowerCase())
  if (asset === undefined) return bad("asset", "not a token the service pays in on this network")
  const amountField = x402Version === 1 ? "maxAmountRequired" : "amount"
  const amount = raw[amountField]
  if (typeof amount !== "string" || !UNITS.test(amount) || BigInt(amount) === 0n) {
    return bad(amountField, "expected a positive integer string, in the token's minor units")
  }
  const tokenAmount = BigInt(amount)
  const cents = centsOfUnits(tokenAmount, asset.decimals)
  if (cents > MAX_CENTS) return bad(amountField, "more than the service pays in one payment")
  const payTo = typeof raw.payTo === "string" ? checksummedEvmAddress(raw.payTo) : undefined
  if (payTo === undefined) return bad("payTo", "expected an EVM address (0x and 40 hexadecimal digits)")
  const timeout = raw.maxTimeoutSeconds
  if (
    typeof timeout !== "number" ||
    !Number.isInteger(timeout) ||
    timeout < MIN_TIMEOUT_SECONDS ||
    timeout > MAX_TIMEOUT_SECONDS
  ) {
    return bad("maxTimeoutSeconds", `expected whole seconds from ${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS}`)
  }
  const extra = raw.extra
  if (!isRecord(extra) || typeof extra.name !== "string" || extra.name === "") {
    return bad("extra.name", "expected the token's EIP-712 domain name")
  }
  if (typeof extra.version !== "string" || extra.version === "") {
    return bad("extra.version", "expected the token's EIP-712 domain version")
  }
  if (extra.assetTransferMethod !== undefined && extra.assetTransferMethod !== "eip3009") {
    return bad("extra.assetTransferMethod", "only EIP-3009 transfers are signed")
  }
  return Result.succeed({
    x402Version,
    network: raw.network as string,
    chainId: network.chainId,
    asset,
    payTo,
    tokenAmount,
    cents: Number(cents),
    maxTimeoutSeconds: timeout,
    domain: { name: extra.name, version: extra.version },
    accepted: raw
  })
}

/**
 * The requirement of a 402 answer the service pays: the first of its `accepts` it supports (the `exact` scheme on a
 * supported network, in a supported token, a positive amount, an EVM `payTo`, a timeout within bounds, the token's
 * EIP-712 domain), or, when none is, the fault of the first one, naming its field.
 */
export const payableRequirement = (
  input: { readonly resourceUrl: string; readonly paymentRequired: unknown },
  assets: ReadonlyArray<X402Asset>
): Result.Result<PayableRequirement, X402PaymentInvalid> => {
  const origin = originOf(input.resourceUrl)
  if (origin === undefined) {
    return Result.fail(new X402PaymentInvalid({ field: "resourceUrl", message: "expected an http(s) URL" }))
  }
  const answer = answerOf(input.paymentRequired)
  if (answer === undefined) {
    return Result.fail(
      new X402PaymentInvalid({
        field: "paymentRequired",
        message: "expected the 402 answer: its JSON body (v1) or its PAYMENT-REQUIRED header (v2)"
      })
    )
  }
  const version = answer.x402Version
  if (version !== 1 && version !== 2) {
    return Result.fail(
      new X402PaymentInvalid({ field: "paymentRequired.x402Version", message: "expected x402 version 1 or 2" })
    )
  }
  const accepts = answer.accepts
  if (!Array.isArray(accepts) || accepts.length === 0) {
    return Result.fail(
      new X402PaymentInvalid({ field: "paymentRequired.accepts", message: "expected at least one requirement" })
    )
  }
  const resource = version === 2 ? answer.resource : null
  if (version === 2 && (!isRecord(resource) || typeof resource.url !== "string")) {
    return Result.fail(
      new X402PaymentInvalid({ field: "paymentRequired.resource.url", message: "expected the resource's URL" })
    )
  }
  const read = accepts.map((raw, i) => requirementOf(version, raw, `paymentRequired.accepts[${i}]`, assets))
  const chosen = read.find(Result.isSuccess) ?? read[0]!
  return Result.map(chosen, (r) => ({ ...r, resourceUrl: input.resourceUrl, origin, resource }))
}

/** The merchant a payment is governed as: the resource's origin and who is paid, as merchant rules name it. */
export const x402Merchant = (r: { readonly origin: string; readonly payTo: string }) => `x402:${r.origin}:${r.payTo}`
