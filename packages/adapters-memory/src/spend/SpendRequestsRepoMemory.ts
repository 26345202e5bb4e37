import {
  AgentKeysRepo,
  ApprovalId,
  ApprovalsRepo,
  approvalView,
  EventOutbox,
  isAfter,
  type KnownMerchant,
  knownMerchantKey,
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
import { ApprovalsRepoMemory } from "../approvals/index.ts"
import { LedgerRepoMemory } from "../ledger/index.ts"
import { EventOutboxMemory } from "../platform/index.ts"
import { MemoryStore } from "../shared/index.ts"

/** A stored request refers to its approval, which the approvals port keeps. */
interface StoredRequest extends Omit<SpendRequest, "approval"> {
  readonly approvalId: ApprovalId | null
}

const usageKeys = (keyId: string, windows: UsageWindows) =>
  [`${keyId}|day|${windows.day}`, `${keyId}|month|${windows.month}`] as const

const soonestExpiryFirst = (a: SpendRequest, b: SpendRequest): number => {
  const [x, y] = [a.approval?.expiresAt ?? "", b.approval?.expiresAt ?? ""]
  if (x !== y) return x < y ? -1 : 1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/**
 * SpendRequestsRepo over the in-memory store. A decided request is written through the ledger and outbox ports of the
 * same store; writes are serialised by the store, so the locks of `lockForDecisions` need no counterpart here.
 */
export const SpendRequestsRepoMemory = Layer.effect(
  SpendRequestsRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const ledger = yield* LedgerRepo
    const keys = yield* AgentKeysRepo
    const outbox = yield* EventOutbox
    const approvals = yield* ApprovalsRepo
    const requests = yield* store.table(HashMap.empty<SpendRequestId, StoredRequest>())
    const usage = yield* store.table(HashMap.empty<string, number>())
    /** Known merchants by `knownMerchantKey`, with when each was first paid. */
    const knownMerchants = yield* store.table(HashMap.empty<string, string>())
    const remember = (merchants: ReadonlyArray<KnownMerchant>) =>
      store.atomically(
        Ref.update(knownMerchants, (map) =>
          merchants.reduce((acc, m) => {
            const key = knownMerchantKey(m.teamId, m.mode, m.merchant)
            const first = HashMap.get(acc, key)
            return Option.isSome(first) && first.value <= m.at ? acc : HashMap.set(acc, key, m.at)
          }, map)
        )
      )
    const withApproval = ({ approvalId, ...stored }: StoredRequest) =>
      Effect.map(
        approvalId === null ? Effect.succeed(Option.none()) : approvals.find(stored.teamId, approvalId),
        (approval): SpendRequest => ({ ...stored, approval: Option.getOrNull(Option.map(approval, approvalView)) })
      )
    const all = Ref.get(requests).pipe(Effect.flatMap((map) => Effect.forEach(HashMap.values(map), withApproval)))
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
      lockForDecisions: (locks) =>
        Effect.forEach(locks, ({ teamId, mode, accountId, spendingKeyId, windows, merchant }) =>
          Effect.gen(function* () {
            const accounts = yield* ledger.listAccounts(teamId, { mode })
            const spend = pickSpendAccount(accounts, accountId)
            const settlement =
              spend === undefined
                ? undefined
                : accounts.find((a) => a.kind === "settlement" && a.currency === spend.currency)
            const locked = yield* ledger.lockAccounts(
              [spend, settlement].flatMap((a) => (a === undefined ? [] : [a.id]))
            )
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
              spentThisMonth: month ?? 0,
              merchantKnown:
                merchant !== undefined &&
                HashMap.has(yield* Ref.get(knownMerchants), knownMerchantKey(teamId, mode, merchant))
            }
          })
        ),
      insertDecided: (batch) =>
        store.atomically(
          Effect.forEach(
            batch,
            ({ request, approval, ledgerTransaction, usage: spent, events, knownMerchant }) =>
              Effect.gen(function* () {
                if (approval !== null) yield* approvals.insert(approval)
                if (ledgerTransaction !== null) {
                  yield* ledger
                    .insertTransaction(ledgerTransaction)
                    .pipe(Effect.catchTags({ DuplicateLedgerTransaction: Effect.die, HoldAlreadyResolved: Effect.die }))
                }
                const { approval: view, ...stored } = request
                yield* Ref.update(
                  requests,
                  HashMap.set(request.id, {
                    ...stored,
                    approvalId: view === null ? null : ApprovalId.make(view.id)
                  })
                )
                if (spent.amount !== 0) yield* addUsage(request.spendingKeyId, spent.windows, spent.amount)
                yield* outbox.publish(...events)
                if (knownMerchant !== null) {
                  yield* remember([
                    { teamId: request.teamId, mode: request.mode, merchant: knownMerchant, at: request.createdAt }
                  ])
                }
              }),
            { discard: true }
          )
        ),
      find: (teamId, id) =>
        Ref.get(requests).pipe(
          Effect.map((map) => HashMap.get(map, id).pipe(Option.filter((sr) => sr.teamId === teamId))),
          Effect.flatMap((row) => Effect.transposeOption(Option.map(row, withApproval)))
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
      moveUsage: addUsage,
      rememberMerchants: remember,
      transition: (teamId, id, transition) =>
        store.atomically(
          Ref.modify(requests, (map) => {
            const row = HashMap.get(map, id)
            if (Option.isNone(row) || row.value.teamId !== teamId || row.value.status !== "pending_approval") {
              return [Option.none<StoredRequest>(), map] as const
            }
            const next: StoredRequest = { ...row.value, ...transition }
            return [Option.some(next), HashMap.set(map, id, next)] as const
          }).pipe(Effect.flatMap((row) => Effect.transposeOption(Option.map(row, withApproval))))
        ),
      dueForExpiry: (now, limit) =>
        all.pipe(
          Effect.map((rows) =>
            rows
              .filter(
                (sr) =>
                  sr.status === "pending_approval" && sr.approval?.status === "pending" && sr.approval.expiresAt <= now
              )
              .toSorted(soonestExpiryFirst)
              .slice(0, limit)
          )
        )
    })
  })
).pipe(Layer.provide([LedgerRepoMemory, AgentKeysRepoMemory, EventOutboxMemory, ApprovalsRepoMemory]))
