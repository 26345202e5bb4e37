import type { ActivityDetail } from "@svc/sdk"

/** A ledger transaction as the API answers it (entries credit positive, minor units). */
export type LedgerTransaction = ActivityDetail["ledgerTransactions"][number]

const SUBJECTS: Readonly<Record<string, string>> = {
  spend_request: "Spend request",
  checkout_intent: "Checkout",
  transfer: "Transfer",
  crypto_payout: "Crypto payout",
  deposit: "Deposit"
}

/** What a transaction of each kind did to the money, in a finance person's words. */
const MEANINGS: Readonly<Record<LedgerTransaction["kind"], string>> = {
  pending: "held",
  post_pending: "paid",
  void_pending: "released",
  posted: "paid"
}

/** What one transaction means: its subject and what happened ("Spend request: held", "Deposit: received"). */
export const movementOf = (tx: Pick<LedgerTransaction, "code" | "kind">): string => {
  const subject = SUBJECTS[tx.code] ?? tx.code.replaceAll("_", " ")
  const meaning = tx.code === "deposit" && tx.kind === "posted" ? "received" : MEANINGS[tx.kind]
  return `${subject}: ${meaning}`
}

/** What an entry's state means: held money still pending, or moved. */
export const entryState = (pending: boolean): string => (pending ? "held" : "settled")
