import type { Approval } from "@svc/sdk"
import type { Reason } from "./reasons.ts"

/** What an approval decides, whatever its subject: the fields an inbox row shows. */
export interface Subject {
  readonly kind: string
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
  crypto_payout: "Crypto payout"
}

/** The kind of subject in words. */
export const kindLabel = (approval: Approval): string => KIND_LABELS[approval.subjectType] ?? approval.subjectType

/** The amount, counterparty, purpose, key and policy reasons of the approval's subject. */
export const subjectOf = (approval: Approval): Subject => {
  const kind = kindLabel(approval)
  if (approval.spendRequest !== undefined) {
    const sr = approval.spendRequest
    return {
      kind,
      amount: sr.amount,
      currency: sr.currency,
      counterparty: sr.merchant.name,
      purpose: sr.purpose,
      keyId: sr.spendingKeyId,
      reasons: sr.decision.reasons
    }
  }
  if (approval.checkoutIntent !== undefined) {
    const ci = approval.checkoutIntent
    return {
      kind,
      amount: ci.amount,
      currency: ci.currency,
      counterparty: ci.merchant.name,
      purpose: ci.purpose,
      keyId: ci.spendingKeyId,
      reasons: ci.decision.reasons
    }
  }
  if (approval.transfer !== undefined) {
    const t = approval.transfer
    return {
      kind,
      amount: t.amount,
      currency: t.currency,
      counterparty: t.to.paymentCode ?? t.to.address,
      purpose: t.memo ?? "",
      keyId: null,
      reasons: t.decision?.reasons ?? []
    }
  }
  const payout = approval.cryptoPayout
  return {
    kind,
    amount: payout?.amount ?? null,
    currency: payout?.currency ?? null,
    counterparty: payout === undefined ? "—" : `${payout.address} (${payout.asset} on ${payout.network})`,
    purpose: "",
    keyId: null,
    reasons: payout?.decision.reasons ?? []
  }
}
