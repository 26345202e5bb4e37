import { Effect, Option } from "effect"
import type { AgentPrincipal } from "../access/index.ts"
import { approvalView } from "../approvals/index.ts"
import { applyEntry, type LockedAccount } from "../ledger/index.ts"
import type { DomainEvent } from "../platform/index.ts"
import { type AccountId, isoOfMillis, newId, newIdText } from "../shared/index.ts"
import { decideGoverned } from "./GovernedDecision.ts"
import { normalizeMerchantName } from "./SpendPolicy.ts"
import { type SpendRequest, SpendRequestId, spendRequestJson, type UsageWindows } from "./SpendRequest.ts"
import type { DecidedSpend, DecisionInputs } from "./SpendRequestsRepo.ts"

/** The outbox events of a spend request's change, one per type, each carrying the request as of the change. */
export const spendEvents = (
  sr: SpendRequest,
  types: ReadonlyArray<string>,
  createdAt: string
): Effect.Effect<ReadonlyArray<DomainEvent>> => {
  const data = spendRequestJson(sr)
  return Effect.forEach(types, (type) =>
    Effect.map(newIdText, (id): DomainEvent => ({ id, teamId: sr.teamId, mode: sr.mode, type, data, createdAt }))
  )
}

/** What an agent asks for. */
export interface CreateSpendRequest {
  readonly amount: number
  readonly currency: string
  readonly merchant: {
    readonly name: string
    readonly category?: string | undefined
    readonly url?: string | undefined
  }
  readonly purpose: string
  readonly accountId?: AccountId | undefined
  readonly metadata?: Readonly<Record<string, string>> | undefined
}

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
      accountId: input.accountId ?? agent.accountId
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
    approval: approval === null ? null : approvalView(approval),
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
  const known = new Set<string>()
  const totalKeys = (keyId: string, w: UsageWindows) => [`${keyId}|day|${w.day}`, `${keyId}|month|${w.month}`] as const
  const current = (locked: Option.Option<LockedAccount>) => Option.map(locked, (a) => accounts.get(a.account.id) ?? a)
  return {
    /** `merchantKey` is the request's `knownMerchantKey`, when it names a merchant. */
    inputsOf: (i: number, spendingKeyId: string, merchantKey?: string): DecisionInputs => {
      const read = inputs[i]
      const w = windows[i]
      if (read === undefined || w === undefined) throw new RangeError(`no locked state for request ${i}`)
      const [day, month] = totalKeys(spendingKeyId, w)
      return {
        ...read,
        spendAccount: current(read.spendAccount),
        settlementAccount: current(read.settlementAccount),
        spentToday: read.spentToday + (spent.get(day) ?? 0),
        spentThisMonth: read.spentThisMonth + (spent.get(month) ?? 0),
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
      const { amount } = decided.usage
      if (amount !== 0) {
        for (const key of totalKeys(decided.request.spendingKeyId, decided.usage.windows)) {
          spent.set(key, (spent.get(key) ?? 0) + amount)
        }
      }
    }
  }
}
