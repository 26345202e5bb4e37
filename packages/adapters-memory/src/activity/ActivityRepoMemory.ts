import {
  ActivityRepo,
  type ActivitySubject,
  CardAuthorizationsRepo,
  CheckoutIntentsRepo,
  type DailySpend,
  LedgerRepo,
  type LedgerTransaction,
  type PageRequest,
  type PersistenceUnavailable,
  type Position,
  SpendRequestsRepo,
  type TeamId,
  TransfersRepo
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"

const BATCH = 500

/** Every row of a newest-first paged list, page after page. */
const allPages = <A extends Position>(
  page: (request: PageRequest) => Effect.Effect<ReadonlyArray<A>, PersistenceUnavailable>
): Effect.Effect<ReadonlyArray<A>, PersistenceUnavailable> =>
  Effect.gen(function* () {
    const rows: Array<A> = []
    let after = Option.none<Position>()
    while (true) {
      const batch = (yield* page({ after, limit: BATCH })).slice(0, BATCH)
      rows.push(...batch)
      const last = batch.at(-1)
      if (batch.length < BATCH || last === undefined) return rows
      after = Option.some({ createdAt: last.createdAt, id: last.id })
    }
  })

/** ActivityRepo over the other in-memory ports: the same answers as Postgres, read by scanning the team's rows. */
export const ActivityRepoMemory = Layer.effect(
  ActivityRepo,
  Effect.gen(function* () {
    const ledger = yield* LedgerRepo
    const authorizations = yield* CardAuthorizationsRepo
    const spend = yield* SpendRequestsRepo
    const transfers = yield* TransfersRepo
    const intents = yield* CheckoutIntentsRepo

    /** Whether a posting or hold is one of the item's own (its code and reference). */
    const isOrigin = (subject: ActivitySubject, tx: LedgerTransaction) =>
      Effect.gen(function* () {
        if (tx.mode !== subject.mode || (tx.kind !== "posted" && tx.kind !== "pending")) return false
        if (subject.kind !== "checkout_intent") return tx.code === subject.kind && tx.reference === subject.id
        if (tx.code !== "card_authorization") return false
        const authorization = yield* authorizations.find(tx.reference.split(":")[0] ?? "")
        return Option.isSome(authorization) && authorization.value.intentId === subject.id
      })

    return ActivityRepo.of({
      ledgerTransactions: (teamId, subject) =>
        Effect.gen(function* () {
          const all = yield* allPages((page) => ledger.listTransactions(teamId, { mode: subject.mode }, page))
          const origins = new Set<string>()
          for (const tx of all) if (yield* isOrigin(subject, tx)) origins.add(tx.id)
          return all
            .filter((tx) => origins.has(tx.id) || (tx.pendingId !== null && origins.has(tx.pendingId)))
            .toReversed()
        }),
      dailySpend: (teamId: TeamId, mode, from, before) =>
        Effect.gen(function* () {
          const window = { mode, createdFrom: from, createdBefore: before }
          const spent = [
            ...(yield* allPages((page) => spend.list(teamId, { ...window, status: "approved" }, page))),
            ...(yield* allPages((page) =>
              transfers.list(teamId, { ...window, status: "completed", direction: "outgoing" }, page)
            )),
            ...(yield* allPages((page) => intents.list(teamId, { ...window, status: "completed" }, page))).map((i) => ({
              ...i,
              amount: i.capturedAmount ?? 0
            }))
          ]
          const totals = new Map<string, DailySpend>()
          for (const row of spent) {
            const date = row.createdAt.slice(0, 10)
            const key = `${row.spendingKeyId}|${date}`
            const amount = (totals.get(key)?.amount ?? 0) + row.amount
            totals.set(key, { spendingKeyId: row.spendingKeyId, date, amount })
          }
          return [...totals.values()]
        })
    })
  })
)
