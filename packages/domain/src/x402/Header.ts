import { base64OfText } from "./internal/Base64.ts"
import type { X402Payment, X402PaymentHeader } from "./Payment.ts"

/**
 * The header the agent retries the resource with, once the payment is signed (and after it settled): v1's `X-PAYMENT`
 * (scheme, network and the signed authorization) or v2's `PAYMENT-SIGNATURE` (the resource and the requirement as the
 * server sent them, and the signed authorization), base64-encoded JSON; none before signing and once it ended unpaid.
 */
export const paymentHeaderOf = (p: X402Payment): X402PaymentHeader | null => {
  if ((p.status !== "signed" && p.status !== "settled") || p.authorization === null || p.signature === null) {
    return null
  }
  const payload = { signature: p.signature, authorization: p.authorization }
  return p.x402Version === 1
    ? {
        name: "X-PAYMENT",
        value: base64OfText(JSON.stringify({ x402Version: 1, scheme: "exact", network: p.network, payload }))
      }
    : {
        name: "PAYMENT-SIGNATURE",
        value: base64OfText(JSON.stringify({ x402Version: 2, resource: p.resource, accepted: p.accepted, payload }))
      }
}
