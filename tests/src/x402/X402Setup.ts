import { X402SignerEvm } from "@svc/adapters-evm"
import { X402SettlementsMemory } from "@svc/adapters-memory"
import {
  DEFAULT_X402_ASSETS,
  SealedSecrets,
  type X402Asset,
  X402Assets,
  type X402Payment,
  X402Payments,
  type X402PaymentsRepo,
  type X402WalletsRepo
} from "@svc/domain"
import { Layer, Redacted } from "effect"
import { domainOver, type Ports } from "../spend/SpendSetup.ts"

/** The ports x402 payments run on. */
export type X402Ports = Ports | X402PaymentsRepo | X402WalletsRepo

/** A 6-decimal dollar token on the local chain (chain id 31337), as a test deploys it. */
export const LOCAL_TOKEN: X402Asset = {
  chainId: 31337,
  address: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  symbol: "USD",
  decimals: 6
}

/** The key wallet keys are sealed under in tests. */
const TEST_SECRETS_KEY = Redacted.make("x402-test-secrets-key-0123456789abcdef")

/**
 * x402 payments over the ports and the spend core, signing with the real (local) signer, seeing settlements on a
 * simulated chain (`X402ChainMemory`), paying USDC and the local token.
 */
export const x402DomainOver = <E>(ports: Layer.Layer<X402Ports, E>) =>
  X402Payments.layer.pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        X402SignerEvm,
        X402SettlementsMemory,
        SealedSecrets.layer(TEST_SECRETS_KEY),
        Layer.succeed(X402Assets, [...DEFAULT_X402_ASSETS, LOCAL_TOKEN])
      )
    ),
    Layer.provideMerge(domainOver(ports)),
    Layer.provideMerge(ports)
  )

/** A fresh EVM address, all lower case. */
export const randomAddress = () =>
  `0x${Array.from(crypto.getRandomValues(new Uint8Array(20)), (b) => b.toString(16).padStart(2, "0")).join("")}`

/** One x402 v2 requirement of `amount` minor units of the local token to `payTo`. */
export const requirementV2 = (
  opts: { readonly amount?: string; readonly payTo?: string; readonly timeout?: number } = {}
) => ({
  scheme: "exact",
  network: "eip155:31337",
  amount: opts.amount ?? "10000",
  asset: LOCAL_TOKEN.address,
  payTo: opts.payTo ?? "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  maxTimeoutSeconds: opts.timeout ?? 60,
  extra: { name: "Test USD", version: "1" }
})

/** The decoded PAYMENT-REQUIRED header of a v2 resource at `url` asking `requirement`. */
export const paymentRequiredV2 = (url: string, requirement: Record<string, unknown> = requirementV2()) => ({
  x402Version: 2,
  error: "Payment required",
  resource: { url, description: "weather", mimeType: "application/json" },
  accepts: [requirement]
})

export const RESOURCE = "http://127.0.0.1:4021/weather"

/** The decoded payment header of a signed payment. */
export const decodedHeader = (p: { readonly paymentHeader: { readonly value: string } | null }) =>
  JSON.parse(Buffer.from(p.paymentHeader?.value ?? "", "base64").toString("utf8")) as Record<string, unknown>

/**
 * EIP-3009's `TransferWithAuthorization` as the token contracts hash it, written out here rather than taken from the
 * signer, so that a wrong definition there shows as a signature that does not verify.
 */
export const EIP3009_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" }
  ]
} as const

/** The EIP-712 typed data a payment's signature is over, for viem's recovery. */
export const typedDataOf = (p: X402Payment) => ({
  domain: {
    name: p.domainName,
    version: p.domainVersion,
    chainId: p.chainId,
    verifyingContract: p.asset as `0x${string}`
  },
  types: EIP3009_TYPES,
  primaryType: "TransferWithAuthorization" as const,
  message: {
    from: p.authorization!.from as `0x${string}`,
    to: p.authorization!.to as `0x${string}`,
    value: BigInt(p.authorization!.value),
    validAfter: BigInt(p.authorization!.validAfter),
    validBefore: BigInt(p.authorization!.validBefore),
    nonce: p.authorization!.nonce as `0x${string}`
  },
  signature: p.signature as `0x${string}`
})
