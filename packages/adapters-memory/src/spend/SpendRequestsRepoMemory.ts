import {
  AgentKeysRepo,
  ApprovalId,
  ApprovalsRepo,
  BUDGET_INTERVALS,
  type BudgetInterval,
  type DecisionInputs,
  type DecisionLock,
  EventOutbox,
  isAfter,
  type KnownMerchant,
  knownMerchantKey,
  LedgerRepo,
  millisOfIso,
  NO_USAGE,
  newestFirst,
  nextUtcDayStart,
  pickSpendAccount,
  type RequestUsage,
  SpendFreezesRepo,
  type SpendRequest,
  type SpendRequestId,
  SpendRequestsRepo,
  type UsageWindows
} from "@svc/domain"
import { Effect, HashMap, Layer, Option, Ref } from "effect"
import { AgentKeysRepoMemory } from "../access/index.ts"
import { ApprovalViewsMemory, approvalViews, viewOrNull } from "../approvals/index.ts"
import { LedgerRepoMemory } from "../ledger/index.ts"
import { EventOutboxMemory } from "../platform/index.ts"
import { MemoryStore } from "../shared/index.ts"
import { SpendFreezesRepoMemory } from "./SpendFreezesRepoMemory.ts"

/** A stored request refers to its approval, which the approvals port keeps. */
interface StoredRequest extends Omit<SpendRequest, "approval"> {
  readonly approvalId: ApprovalId | null
}

const startsOf = (w: UsageWindows): Readonly<Record<BudgetInterval, string>> => ({
  day: w.day,
  week: w.week,
  month: w.month,
  year: w.year,
  lifetime: ""
})

const totalKey = (keyId: string, category: string, interval: BudgetInterval, w: UsageWindows) =>
  `${keyId}|${category}|${interval}|${startsOf(w)[interval]}`

/** Every total an amount in `windows` moves: the credential's, and its category's when it has one. */
const usageKeys = (keyId: string, w: UsageWindows) =>
  (w.category === null ? [""] : ["", w.category]).flatMap((category) =>
    BUDGET_INTERVALS.map((interval) => totalKey(keyId, category, interval, w))
  )

const MILLIS_PER_HOUR = 3_600_000

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
    const viewOf = viewOrNull(yield* approvalViews)
    const freezes = yield* SpendFreezesRepo
    const requests = yield* store.table(HashMap.empty<SpendRequestId, StoredRequest>())
    const usage = yield* store.table(HashMap.empty<string, number>())
    /** When each credential's counted requests were made (epoch millis), most recent first. */
    const requestTimes = yield* store.table(HashMap.empty<string, ReadonlyArray<number>>())
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
        Effect.flatMap(
          approvalId === null ? Effect.succeed(Option.none()) : approvals.find(stored.teamId, approvalId),
          viewOf
        ),
        (approval): SpendRequest => ({ ...stored, approval })
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
    const countRequest = (keyId: string, at: number) =>
      Ref.update(requestTimes, (map) =>
        HashMap.set(
          map,
          keyId,
          [at, ...Option.getOrElse(HashMap.get(map, keyId), () => [])].toSorted((a, b) => b - a)
        )
      )
    const totalsOf = (totals: HashMap.HashMap<string, number>, keyId: string, category: string, w: UsageWindows) => {
      const of = (interval: BudgetInterval) =>
        Option.getOrElse(HashMap.get(totals, totalKey(keyId, category, interval, w)), () => 0)
      return { day: of("day"), week: of("week"), month: of("month"), year: of("year"), lifetime: of("lifetime") }
    }
    /** The state a decision reads; the store serialises writes, so reading is all a lock needs here. */
    const read = ({ teamId, mode, accountId, spendingKeyId, windows, at, requestLimits, merchant }: DecisionLock) =>
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
        const team = yield* keys.versionedTeamPolicy(teamId)
        const teamPolicy = team.policy
        const perHour = requestLimits.maxRequestsPerHour ?? teamPolicy.maxRequestsPerHour
        const perDay = requestLimits.maxRequestsPerDay ?? teamPolicy.maxRequestsPerDay
        const times = Option.getOrElse(HashMap.get(yield* Ref.get(requestTimes), spendingKeyId), () => [])
        const dayStart = millisOfIso(windows.day)
        const today = times.filter((t) => t >= dayStart && t < nextUtcDayStart(dayStart)).length
        const inputs: DecisionInputs = {
          spendAccount: lockedOf(spend?.id),
          settlementAccount: lockedOf(settlement?.id),
          teamPolicy,
          teamPolicyVersion: team.version,
          spent: totalsOf(totals, spendingKeyId, "", windows),
          categorySpent:
            windows.category === null ? NO_USAGE : totalsOf(totals, spendingKeyId, windows.category, windows),
          recentRequests: perHour === undefined ? [] : times.filter((t) => t > at - MILLIS_PER_HOUR).slice(0, perHour),
          requestsToday: perDay === undefined ? 0 : Math.min(today, perDay),
          merchantKnown:
            merchant !== undefined &&
            HashMap.has(yield* Ref.get(knownMerchants), knownMerchantKey(teamId, mode, merchant)),
          governance: {
            freezes: yield* freezes.active(teamId),
            approvalTiers: yield* approvals.tiers(teamId),
            keyCreatedBy:
              [...(yield* keys.listSpendingKeys(teamId)), ...(yield* keys.listTeamKeys(teamId))].find(
                (k) => k.id === spendingKeyId
              )?.createdBy ?? null
          }
        }
        return inputs
      })
    const recordUsage = (keyId: string, counted: RequestUsage) =>
      counted.amount === 0
        ? Effect.void
        : store.atomically(
            Effect.andThen(addUsage(keyId, counted.windows, counted.amount), countRequest(keyId, counted.at))
          )
    return SpendRequestsRepo.of({
      lockForDecisions: (locks) => Effect.forEach(locks, read),
      readForDecision: read,
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
                yield* recordUsage(request.spendingKeyId, spent)
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
                  (query.spendingKeyId === undefined || sr.spendingKeyId === query.spendingKeyId) &&
                  (query.createdFrom === undefined || sr.createdAt >= query.createdFrom) &&
                  (query.createdBefore === undefined || sr.createdAt < query.createdBefore) &&
                  (query.approvalStatus === undefined || sr.approval?.status === query.approvalStatus) &&
                  (query.withApproval !== true || sr.approval !== null) &&
                  isAfter(sr, page.after)
              )
              .toSorted(newestFirst)
              .slice(0, page.limit + 1)
          )
        ),
      recordUsage,
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
).pipe(
  Layer.provide([LedgerRepoMemory, AgentKeysRepoMemory, EventOutboxMemory, ApprovalViewsMemory, SpendFreezesRepoMemory])
)
