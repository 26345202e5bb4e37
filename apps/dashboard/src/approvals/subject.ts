import type { Approval } from "@svc/sdk"
import type { Reason } from "./reasons.ts"

/** What an approval decides, whatever its subject: the fields an inbox row shows. */
export interface Subject {
  readonly kind: string
  /** The subject's mode; null for a crypto payout, which has none. */
  readonly mode: "live" | "test" | null
  readonly amount: number | null
  readonly currency: string | null
  readonly counterparty: string
  readonly purpose: string
  readonly keyId: string | null
  readonly reasons: ReadonlyArray<Reason>
}

const KIND_LABELS: Readonly<Record<Approval["subjectType"], string>> = {
  spend_request: "Spend request",
  transfer: "Transfer",
  checkout_intent: "Checkout",
  crypto_payout: "Crypto payout",
  x402_payment: "x402 payment"
}

/** The kind of subject in words. */
export const kindLabel = (approval: Approval): string => KIND_LABELS[approval.subjectType] ?? approval.subjectType

/** The amount, counterparty, purpose, key and policy reasons of the approval's subject. */
export const subjectOf = (approval: Approval): Subject => {
  const kind = kindLabel(approval)
  switch (approval.subjectType) {
    case "spend_request":
    case "checkout_intent": {
      const { subject } = approval
      return {
        kind,
        mode: subject.mode,
        amount: subject.amount,
        currency: subject.currency,
        counterparty: subject.merchant.name,
        purpose: subject.purpose,
        keyId: subject.spendingKeyId,
        reasons: subject.decision.reasons
      }
    }
    case "transfer": {
      const t = approval.subject
      return {
        kind,
        mode: t.mode,
        amount: t.amount,
        currency: t.currency,
        counterparty: t.to.paymentCode ?? t.to.address,
        purpose: t.memo ?? "",
        keyId: null,
        reasons: t.decision?.reasons ?? []
      }
    }
    case "crypto_payout": {
      const payout = approval.subject
      return {
        kind,
        mode: null,
        amount: payout.amount,
        currency: payout.currency,
        counterparty: `${payout.address} (${payout.asset} on ${payout.network})`,
        purpose: "",
        keyId: null,
        reasons: payout.decision.reasons
      }
    }
    case "x402_payment": {
      const payment = approval.subject
      return {
        kind,
        mode: payment.mode,
        amount: payment.amount,
        currency: payment.currency,
        counterparty: `${payment.resourceUrl} (${payment.payTo}, ${payment.assetSymbol} on ${payment.network})`,
        purpose: "",
        keyId: null,
        reasons: payment.decision.reasons
      }
    }
  }
}
