import { Effect, Option } from "effect"
import type { AgentPrincipal } from "../access/model.ts"
import { approvalView } from "../approvals/index.ts"
import { type DecisionInputs, decideGoverned } from "../governance/index.ts"
import { applyEntry, type LockedAccount } from "../ledger/index.ts"
import { type DomainEvent, domainEvents } from "../platform/index.ts"
import { isoOfMillis, newId } from "../shared/index.ts"
import { BUDGET_INTERVALS, type BudgetInterval, normalizeMerchantName, type UsageTotals } from "./SpendPolicy.ts"
import {
  askedAccountId,
  type CreateSpendRequest,
  type SpendRequest,
  type SpendRequestEventType,
  SpendRequestId,
  spendRequestJson,
  type UsageWindows
} from "./SpendRequest.ts"
import type { DecidedSpend } from "./SpendRequestsRepo.ts"

/** The outbox events of a spend request's change, one per type, each carrying the request as of the change. */
export const spendEvents = (
  sr: SpendRequest,
  types: ReadonlyArray<SpendRequestEventType>,
  createdAt: string
): Effect.Effect<ReadonlyArray<DomainEvent>> =>
  domainEvents({ teamId: sr.teamId, mode: sr.mode, data: spendRequestJson(sr), createdAt }, types)

/**
 * What a new request decides from the state `SpendRequestsRepo.lockForDecisions` read under its locks at `now` for
 * the budget `windows` of that moment (`decideGoverned`), as a spend request: the request, what it writes, its events.
 */
export const decideSpend = Effect.fn("SpendRequests.decide")(function* (
  agent: AgentPrincipal,
  input: CreateSpendRequest,
  inputs: DecisionInputs,
  now: number,
  windows: UsageWindows
) {
  const id = yield* newId(SpendRequestId)
  const { decision, account, ledgerTransaction, approval, usage } = yield* decideGoverned(
    agent,
    {
      amount: input.amount,
      currency: input.currency,
      merchant: { name: input.merchant.name, category: input.merchant.category },
      accountId: askedAccountId(input) ?? agent.accountId
    },
    { type: "spend_request", id, whenApproved: "post" },
    inputs,
    now,
    windows
  )
  const createdAt = isoOfMillis(now)
  const sr: SpendRequest = {
    id,
    teamId: agent.teamId,
    mode: agent.mode,
    status: decision.outcome,
    amount: input.amount,
    currency: input.currency,
    merchant: {
      name: input.merchant.name,
      category: input.merchant.category ?? null,
      url: input.merchant.url ?? null
    },
    purpose: input.purpose,
    accountId: account.id,
    spendingKeyId: agent.keyId,
    metadata: input.metadata ?? {},
    decision,
    approval: approval === null ? null : approvalView(approval, null),
    ledgerTransactionId: decision.outcome === "approved" && ledgerTransaction !== null ? ledgerTransaction.id : null,
    holdTransactionId:
      decision.outcome === "pending_approval" && ledgerTransaction !== null ? ledgerTransaction.id : null,
    createdAt,
    updatedAt: createdAt
  }
  const decided: DecidedSpend = {
    request: sr,
    approval,
    ledgerTransaction,
    usage,
    events: yield* spendEvents(
      sr,
      [
        "spend_request.created",
        decision.outcome === "approved"
          ? "spend_request.approved"
          : decision.outcome === "denied"
            ? "spend_request.denied"
            : "spend_request.approval_required"
      ],
      createdAt
    ),
    knownMerchant: sr.ledgerTransactionId === null ? null : normalizeMerchantName(sr.merchant.name)
  }
  return decided
})

/** The start of each interval's period in `windows` (lifetime's never moves). */
const startsOf = (w: UsageWindows): Readonly<Record<BudgetInterval, string>> => ({
  day: w.day,
  week: w.week,
  month: w.month,
  year: w.year,
  lifetime: ""
})

/** How a batch names a merchant known to a team in a mode. */
export const knownMerchantKey = (teamId: string, mode: string, merchant: string): string =>
  `${teamId}|${mode}|${merchant}`

/**
 * The locked state of a batch as its decisions move it (`inputs[i]` as `SpendRequestsRepo.lockForDecisions` read it for
 * request `i`): `inputsOf(i)` is request `i`'s state after every decision `record`ed so far, so requests decided one
 * after another in arrival order see exactly what they would have seen in transactions of their own, one after another.
 */
export const carryForward = (inputs: ReadonlyArray<DecisionInputs>, windows: ReadonlyArray<UsageWindows>) => {
  const accounts = new Map<string, LockedAccount>()
  const spent = new Map<string, number>()
  const requests = new Map<string, Array<number>>()
  const requestsOnDay = new Map<string, number>()
  const total = (keyId: string, category: string, interval: BudgetInterval, w: UsageWindows) =>
    `${keyId}|${category}|${interval}|${startsOf(w)[interval]}`
  const totalsOf = (keyId: string, category: string, w: UsageWindows, read: UsageTotals): UsageTotals => ({
    day: read.day + (spent.get(total(keyId, category, "day", w)) ?? 0),
    week: read.week + (spent.get(total(keyId, category, "week", w)) ?? 0),
    month: read.month + (spent.get(total(keyId, category, "month", w)) ?? 0),
    year: read.year + (spent.get(total(keyId, category, "year", w)) ?? 0),
    lifetime: read.lifetime + (spent.get(total(keyId, category, "lifetime", w)) ?? 0)
  })
  const known = new Set<string>()
  const current = (locked: Option.Option<LockedAccount>) => Option.map(locked, (a) => accounts.get(a.account.id) ?? a)
  return {
    /** `merchantKey` is the request's `knownMerchantKey`, when it names a merchant. */
    inputsOf: (i: number, spendingKeyId: string, merchantKey?: string): DecisionInputs => {
      const read = inputs[i]
      const w = windows[i]
      if (read === undefined || w === undefined) throw new RangeError(`no locked state for request ${i}`)
      return {
        ...read,
        spendAccount: current(read.spendAccount),
        settlementAccount: current(read.settlementAccount),
        spent: totalsOf(spendingKeyId, "", w, read.spent),
        categorySpent:
          w.category === null ? read.categorySpent : totalsOf(spendingKeyId, w.category, w, read.categorySpent),
        recentRequests: [...(requests.get(spendingKeyId) ?? []), ...read.recentRequests],
        requestsToday: read.requestsToday + (requestsOnDay.get(`${spendingKeyId}|${w.day}`) ?? 0),
        merchantKnown: read.merchantKnown || (merchantKey !== undefined && known.has(merchantKey))
      }
    },
    /** Moves the state by `decided`, which was decided on `decidedOn` (what `inputsOf` gave). */
    record: (decided: DecidedSpend, decidedOn: DecisionInputs) => {
      const tx = decided.ledgerTransaction
      if (tx !== null) {
        const locked = [decidedOn.spendAccount, decidedOn.settlementAccount].flatMap((a) => Option.toArray(a))
        for (const entry of tx.entries) {
          const before = accounts.get(entry.accountId) ?? locked.find((a) => a.account.id === entry.accountId)
          if (before === undefined) throw new RangeError(`account ${entry.accountId} was not locked`)
          accounts.set(entry.accountId, {
            ...before,
            counters: applyEntry(before.counters, entry, tx.pendingId !== null)
          })
        }
      }
      if (decided.knownMerchant !== null) {
        known.add(knownMerchantKey(decided.request.teamId, decided.request.mode, decided.knownMerchant))
      }
      const { amount, windows: w, at } = decided.usage
      if (amount === 0) return
      const keyId = decided.request.spendingKeyId
      for (const category of w.category === null ? [""] : ["", w.category]) {
        for (const interval of BUDGET_INTERVALS) {
          const key = total(keyId, category, interval, w)
          spent.set(key, (spent.get(key) ?? 0) + amount)
        }
      }
      requests.set(keyId, [at, ...(requests.get(keyId) ?? [])])
      requestsOnDay.set(`${keyId}|${w.day}`, (requestsOnDay.get(`${keyId}|${w.day}`) ?? 0) + 1)
    }
  }
}
