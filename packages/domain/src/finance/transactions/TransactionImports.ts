import { Effect, Option } from "effect"
import { newId, nowIso, type TeamId } from "../../shared/index.ts"
import type { BankAccount } from "../banking/model.ts"
import { TransactionId } from "./Transaction.ts"
import type { BankFeedTransaction } from "./TransactionInput.ts"
import { providerTransaction } from "./TransactionRules.ts"
import type { TransactionsRepo } from "./TransactionsRepo.ts"

/** What importing a bank feed did: transactions created, and existing ones brought up to date. */
export interface ImportOutcome {
  readonly created: number
  readonly updated: number
}

/**
 * Records a connected account's bank transactions: each provider transaction id becomes one transaction of the team
 * (the repository's unique key decides, so redeliveries and concurrent deliveries never duplicate), and a later report
 * of the same id updates what the bank owns (day, name, amount; a pending one becomes posted); what the team set (category,
 * tags, note, status, attachments) stays.
 */
export const importBankTransactions = Effect.fn("Transactions.importFromBank")(function* (
  repo: TransactionsRepo["Service"],
  account: BankAccount,
  provider: string,
  items: ReadonlyArray<BankFeedTransaction>
) {
  const at = yield* nowIso
  let created = 0
  let updated = 0
  for (const item of items) {
    const transaction = providerTransaction({
      id: yield* newId(TransactionId),
      teamId: account.teamId as TeamId,
      at,
      date: item.date,
      name: item.name,
      description: item.description,
      amountMinor: item.amountMinor,
      currency: item.currency,
      status: item.pending ? "pending" : "posted",
      bankAccountId: account.id,
      counterpartyName: item.counterpartyName,
      provider,
      providerTransactionId: item.id
    })
    const outcome = yield* repo.insertImported(transaction)
    if (outcome.outcome === "created") {
      created++
      continue
    }
    const current = yield* repo.find(transaction.teamId, outcome.id)
    const wasPending = Option.exists(current, (d) => d.transaction.status === "pending")
    yield* repo.update(transaction.teamId, [outcome.id], {
      date: item.date,
      name: item.name,
      description: item.description,
      amountMinor: item.amountMinor,
      currency: item.currency,
      ...(wasPending ? { status: transaction.status } : {}),
      counterpartyName: item.counterpartyName,
      updatedAt: at
    })
    updated++
  }
  return { created, updated } satisfies ImportOutcome
})
