import { X402Signer } from "@svc/domain"
import { Effect, Layer, Redacted } from "effect"
import { getAddress, type Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"

/** EIP-3009's `TransferWithAuthorization`, as the token contracts hash it for EIP-712. */
export const TRANSFER_WITH_AUTHORIZATION_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" }
  ]
} as const

/** Wallet keys made and used by viem, locally: secp256k1 keys, EIP-712 signatures of EIP-3009 authorizations. */
export const x402SignerEvm = X402Signer.of({
  generateKey: Effect.sync(() => {
    const privateKey = generatePrivateKey()
    return { privateKey: Redacted.make(privateKey), address: privateKeyToAccount(privateKey).address }
  }),
  signAuthorization: (privateKey, { chainId, asset, domainName, domainVersion, authorization: a }) =>
    Effect.promise(() =>
      privateKeyToAccount(Redacted.value(privateKey) as Hex).signTypedData({
        domain: { name: domainName, version: domainVersion, chainId, verifyingContract: getAddress(asset) },
        types: TRANSFER_WITH_AUTHORIZATION_TYPES,
        primaryType: "TransferWithAuthorization",
        message: {
          from: getAddress(a.from),
          to: getAddress(a.to),
          value: BigInt(a.value),
          validAfter: BigInt(a.validAfter),
          validBefore: BigInt(a.validBefore),
          nonce: a.nonce as Hex
        }
      })
    )
})

/** `x402SignerEvm` as the `X402Signer`. */
export const X402SignerEvm = Layer.succeed(X402Signer, x402SignerEvm)
