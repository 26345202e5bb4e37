import {
  AgentKeysRepo,
  EventOutbox,
  isAfter,
  LedgerRepo,
  newestFirst,
  pickSpendAccount,
  type SpendRequest,
  type SpendRequestId,
  SpendRequestsRepo,
  type UsageWindows
} from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { AgentKeysRepoMemory } from "../access/index.ts"
import { LedgerRepoMemory } from "../ledger/index.ts"
import { EventOutboxMemory } from "../platform/index.ts"
import { MemoryStore } from "../shared/index.ts"

const usageKeys = (keyId: string, windows: UsageWindows) =>
  [`${keyId}|day|${windows.day}`, `${keyId}|month|${windows.month}`] as const

/**
 * SpendRequestsRepo over the in-memory store. A decided request is written through the ledger and outbox ports of the
 * same store; writes are serialised by the store, so the locks of `lockForDecision` need no counterpart here.
 */
export const SpendRequestsRepoMemory = Layer.effect(
  SpendRequestsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const ledger = yield* LedgerRepo
    const keys = yield* AgentKeysRepo
    const outbox = yield* EventOutbox
    const requests = yield* store.table(HashMap.empty<SpendRequestId, SpendRequest>())
    const usage = yield* store.table(HashMap.empty<string, number>())
    const all = Ref.get(requests).pipe(Effect.map((map) => Array.from(HashMap.values(map))))
    const addUsage = (keyId: string, windows: UsageWindows, delta: number) =>
      store.atomically(
        Ref.update(usage, (map) =>
          usageKeys(keyId, windows).reduce(
            (acc, key) => HashMap.set(acc, key, Option.getOrElse(HashMap.get(acc, key), () => 0) + delta),
            map
          )
        )
      )
    return SpendRequestsRepo.of({
      lockForDecision: ({ teamId, mode, accountId, spendingKeyId, windows }) =>
        Effect.gen(function* () {
          const accounts = yield* ledger.listAccounts(teamId, { mode })
          const spend = pickSpendAccount(accounts, accountId)
          const settlement =
            spend === undefined
              ? undefined
              : accounts.find((a) => a.kind === "settlement" && a.currency === spend.currency)
          const locked = yield* ledger.lockAccounts([spend, settlement].flatMap((a) => (a === undefined ? [] : [a.id])))
          const lockedOf = (id: string | undefined) => Option.fromNullishOr(locked.find((l) => l.account.id === id))
          const totals = yield* Ref.get(usage)
          const [day, month] = usageKeys(spendingKeyId, windows).map((key) =>
            Option.getOrElse(HashMap.get(totals, key), () => 0)
          )
          return {
            spendAccount: lockedOf(spend?.id),
            settlementAccount: lockedOf(settlement?.id),
            teamPolicy: yield* keys.teamPolicy(teamId),
            spentToday: day ?? 0,
            spentThisMonth: month ?? 0
          }
        }),
      insertDecided: ({ request, ledgerTransaction, usage: spent, events }) =>
        store.atomically(
          Effect.gen(function* () {
            if (ledgerTransaction !== null) {
              yield* ledger
                .insertTransaction(ledgerTransaction)
                .pipe(Effect.catchTags({ DuplicateLedgerTransaction: Effect.die, HoldAlreadyResolved: Effect.die }))
            }
            yield* Ref.update(requests, HashMap.set(request.id, request))
            if (spent.amount !== 0) yield* addUsage(request.spendingKeyId, spent.windows, spent.amount)
            yield* outbox.publish(...events)
          })
        ),
      find: (teamId, id) =>
        Ref.get(requests).pipe(
          Effect.map((map) => HashMap.get(map, id).pipe(Option.filter((sr) => sr.teamId === teamId)))
        ),
      findByApprovalId: (teamId, approvalId) =>
        all.pipe(
          Effect.map((rows) =>
            Option.fromNullishOr(rows.find((sr) => sr.teamId === teamId && sr.approval?.id === approvalId))
          )
        ),
      list: (teamId, query, page) =>
        all.pipe(
          Effect.map((rows) =>
            rows
              .filter(
                (sr) =>
                  sr.teamId === teamId &&
                  (query.mode === undefined || sr.mode === query.mode) &&
                  (query.status === undefined || sr.status === query.status) &&
                  (query.approvalStatus === undefined || sr.approval?.status === query.approvalStatus) &&
                  (query.withApproval !== true || sr.approval !== null) &&
                  isAfter(sr, page.after)
              )
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
        ),
      releaseUsage: (keyId, windows, amount) => addUsage(keyId, windows, -amount),
      transition: (teamId, id, transition) =>
        store.atomically(
          Ref.modify(requests, (map) => {
            const row = HashMap.get(map, id)
            if (Option.isNone(row) || row.value.teamId !== teamId || row.value.status !== "pending_approval") {
              return [Option.none<SpendRequest>(), map] as const
            }
            const next: SpendRequest = { ...row.value, ...transition, holdTransactionId: row.value.holdTransactionId }
            return [Option.some(next), HashMap.set(map, id, next)] as const
          })
        ),
      dueForExpiry: (now, limit) =>
        all.pipe(
          Effect.map((rows) =>
            rows
              .filter((sr) => sr.status === "pending_approval" && sr.approval !== null && sr.approval.expiresAt <= now)
              .toSorted((a, b) => (a.createdAt < b.createdAt ? -1 : 1))
              .slice(0, limit)
          )
        )
    })
  })
).pipe(Layer.provide([LedgerRepoMemory, AgentKeysRepoMemory, EventOutboxMemory]))
