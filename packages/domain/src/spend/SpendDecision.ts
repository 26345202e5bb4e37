import { Effect, Option } from "effect"
import type { AgentPrincipal } from "../access/index.ts"
import { type Approval, ApprovalId, approvalView } from "../approvals/index.ts"
import {
  applyEntry,
  balanceOf,
  type LockedAccount,
  movementPosting,
  planTransaction,
  SettlementAccountMissing
} from "../ledger/index.ts"
import type { DomainEvent } from "../platform/index.ts"
import { type AccountId, isoOfMillis, LedgerTransactionId, newId, newIdText } from "../shared/index.ts"
import { approvalExpiresAt, effectivePolicy, evaluateSpend } from "./SpendPolicy.ts"
import {
  type SpendRequest,
  SpendRequestId,
  SpendRequestInvalid,
  spendRequestJson,
  type UsageWindows
} from "./SpendRequest.ts"
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
 * the budget `windows` of that moment: the
 * policy decision, the posting (approved) or hold (pending approval), the approval to store, the request, its budget
 * usage and its events. Refused when the credential has no such spend account, the currency differs from the
 * account's, or the team has no settlement account in that currency.
 */
export const decideSpend = Effect.fn("SpendRequests.decide")(function* (
  agent: AgentPrincipal,
  input: CreateSpendRequest,
  inputs: DecisionInputs,
  now: number,
  windows: UsageWindows
) {
  const accountId = input.accountId ?? agent.accountId
  if (Option.isNone(inputs.spendAccount)) {
    return yield* new SpendRequestInvalid({
      field: "accountId",
      message: `no ${agent.mode} spend account ${accountId ?? ""}`.trim()
    })
  }
  const spend = inputs.spendAccount.value
  const account = spend.account
  if (account.currency !== input.currency) {
    return yield* new SpendRequestInvalid({
      field: "currency",
      message: `the account holds ${account.currency}, not ${input.currency}`
    })
  }
  if (Option.isNone(inputs.settlementAccount)) {
    return yield* new SettlementAccountMissing({
      teamId: agent.teamId,
      mode: agent.mode,
      currency: account.currency
    })
  }
  const settlement = inputs.settlementAccount.value
  const policy = effectivePolicy(agent.policy ?? {}, inputs.teamPolicy)
  const decision = evaluateSpend({
    policy,
    amount: input.amount,
    merchant: { name: input.merchant.name, category: input.merchant.category },
    spentToday: inputs.spentToday,
    spentThisMonth: inputs.spentThisMonth,
    available: balanceOf(spend.counters).available
  })
  const id = yield* newId(SpendRequestId)
  const createdAt = isoOfMillis(now)
  const posting = movementPosting(
    {
      teamId: agent.teamId,
      mode: agent.mode,
      code: "spend_request",
      reference: id,
      debitAccountId: account.id,
      creditAccountId: settlement.account.id,
      amount: input.amount
    },
    decision.outcome === "pending_approval"
  )
  const moved =
    decision.outcome === "denied"
      ? null
      : yield* Effect.fromResult(
          planTransaction({ ...posting.base, id: yield* newId(LedgerTransactionId), createdAt }, posting.entries, {
            locked: [spend, settlement],
            checkFunds: true
          })
        ).pipe(
          // Two locked accounts of the team, mode and one currency, a positive amount, and the policy denied
          // any amount over the locked available balance: the plan cannot be refused.
          Effect.orDie
        )
  const approval: Approval | null =
    decision.outcome === "pending_approval"
      ? {
          id: yield* newId(ApprovalId),
          teamId: agent.teamId,
          mode: agent.mode,
          subjectType: "spend_request",
          subjectId: id,
          status: "pending",
          expiresAt: isoOfMillis(approvalExpiresAt(now, policy)),
          decidedAt: null,
          decidedBy: null,
          note: null,
          createdAt,
          updatedAt: createdAt
        }
      : null
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
    ledgerTransactionId: decision.outcome === "approved" && moved !== null ? moved.id : null,
    holdTransactionId: decision.outcome === "pending_approval" && moved !== null ? moved.id : null,
    createdAt,
    updatedAt: createdAt
  }
  const decided: DecidedSpend = {
    request: sr,
    approval,
    ledgerTransaction: moved,
    usage: { windows, amount: decision.outcome === "denied" ? 0 : input.amount },
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
    )
  }
  return decided
})

/**
 * The locked state of a batch as its decisions move it (`inputs[i]` as `SpendRequestsRepo.lockForDecisions` read it for
 * request `i`): `inputsOf(i)` is request `i`'s state after every decision `record`ed so far, so requests decided one
 * after another in arrival order see exactly what they would have seen in transactions of their own, one after another.
 */
export const carryForward = (inputs: ReadonlyArray<DecisionInputs>, windows: ReadonlyArray<UsageWindows>) => {
  const accounts = new Map<string, LockedAccount>()
  const spent = new Map<string, number>()
  const totalKeys = (keyId: string, w: UsageWindows) => [`${keyId}|day|${w.day}`, `${keyId}|month|${w.month}`] as const
  const current = (locked: Option.Option<LockedAccount>) => Option.map(locked, (a) => accounts.get(a.account.id) ?? a)
  return {
    inputsOf: (i: number, spendingKeyId: string): DecisionInputs => {
      const read = inputs[i]
      const w = windows[i]
      if (read === undefined || w === undefined) throw new RangeError(`no locked state for request ${i}`)
      const [day, month] = totalKeys(spendingKeyId, w)
      return {
        ...read,
        spendAccount: current(read.spendAccount),
        settlementAccount: current(read.settlementAccount),
        spentToday: read.spentToday + (spent.get(day) ?? 0),
        spentThisMonth: read.spentThisMonth + (spent.get(month) ?? 0)
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
      const { amount } = decided.usage
      if (amount !== 0) {
        for (const key of totalKeys(decided.request.spendingKeyId, decided.usage.windows)) {
          spent.set(key, (spent.get(key) ?? 0) + amount)
        }
      }
    }
  }
}
