import { assert, describe, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import {
  type Account,
  type AccountKind,
  applyEntry,
  balanceOf,
  type Counters,
  emptyCounters,
  type LedgerTransaction,
  type LockedAccount,
  type Movement,
  movementPosting,
  type PlannedEntry,
  planTransaction,
  resolutionPosting
} from "../../src/ledger/index.ts"
import type { AccountId, LedgerTransactionId, Mode, TeamId } from "../../src/shared/index.ts"

const team = "team-a" as TeamId

const open = (
  id: string,
  kind: AccountKind,
  counters: Counters = emptyCounters,
  extra: Partial<Account> = {}
): LockedAccount => ({
  account: {
    id: id as AccountId,
    teamId: team,
    mode: "test",
    kind,
    name: id,
    currency: "USD",
    createdAt: "2026-01-01T00:00:00.000Z",
    ...extra
  },
  counters
})

const funded = (postedSum: number, pendingOut = 0, pendingIn = 0): Counters => ({ postedSum, pendingOut, pendingIn })

const spend = open("spend", "spend", funded(10_000))
const settlement = open("settlement", "settlement")
const external = open("external", "external")
const euros = open("euros", "spend", funded(10_000), { currency: "EUR" })
const otherTeam = open("other-team", "spend", funded(10_000), { teamId: "team-b" as TeamId })
const liveMode = open("live", "spend", funded(10_000), { mode: "live" })
const locked = [spend, settlement, external, euros, otherTeam, liveMode]

const header = (kind: LedgerTransaction["kind"] = "posted"): Omit<LedgerTransaction, "entries"> => ({
  id: "tx-1" as LedgerTransactionId,
  teamId: team,
  mode: "test",
  kind,
  code: "spend_request",
  reference: "ref-1",
  pendingId: null,
  createdAt: "2026-01-01T00:00:00.000Z"
})

const leg = (id: string, amount: number, pending = false): PlannedEntry => ({
  accountId: id as AccountId,
  amount,
  pending
})

const movement = (debit: LockedAccount, credit: LockedAccount, amount: number): Movement => ({
  teamId: team,
  mode: "test" as Mode,
  code: "spend_request",
  reference: "ref-1",
  debitAccountId: debit.account.id,
  creditAccountId: credit.account.id,
  amount
})

const plan = (
  entries: ReadonlyArray<PlannedEntry>,
  options: { readonly locked?: ReadonlyArray<LockedAccount>; readonly checkFunds?: boolean } = {}
) => planTransaction(header(), entries, { locked: options.locked ?? locked, checkFunds: options.checkFunds ?? true })

const failureOf = (result: ReturnType<typeof plan>) => {
  if (Result.isSuccess(result)) return assert.fail("expected the plan to be refused")
  return result.failure
}

const int = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))

describe("planTransaction", () => {
  it.each([
    { name: "an account that was not locked", entries: [leg("spend", -1), leg("nowhere", 1)], missing: "nowhere" },
    { name: "another team's account", entries: [leg("spend", -1), leg("other-team", 1)], missing: "other-team" },
    { name: "an account of the other mode", entries: [leg("spend", -1), leg("live", 1)], missing: "live" },
    {
      name: "an unknown account even when the entries do not balance",
      entries: [leg("spend", -1), leg("nowhere", 2)],
      missing: "nowhere"
    }
  ])("refuses $name with AccountNotFound", ({ entries, missing }) => {
    const failure = failureOf(plan(entries))
    assert.strictEqual(failure._tag, "AccountNotFound")
    assert.strictEqual((failure as { accountId: string }).accountId, missing)
  })

  it.each([
    { name: "posted entries that do not balance", entries: [leg("spend", -5), leg("settlement", 4)] },
    {
      name: "pending entries that do not balance although all entries together do",
      entries: [leg("spend", -5, true), leg("settlement", 4, true), leg("external", 1)]
    },
    {
      name: "a posted side that balances only with the pending side",
      entries: [leg("spend", -5, true), leg("settlement", 5)]
    },
    { name: "two currencies", entries: [leg("spend", -5), leg("euros", 5)] },
    { name: "a lone entry", entries: [leg("settlement", 5)] },
    { name: "fractional minor units", entries: [leg("spend", -0.5), leg("settlement", 0.5)] }
  ])("refuses $name with UnbalancedTransaction", ({ entries }) => {
    assert.strictEqual(failureOf(plan(entries))._tag, "UnbalancedTransaction")
  })

  it.each([
    { name: "more than the posted balance", counters: funded(100), amount: 101, available: 100 },
    { name: "anything from an empty account", counters: funded(0), amount: 1, available: 0 },
    { name: "funds reserved by an outgoing hold", counters: funded(100, 60), amount: 41, available: 40 },
    { name: "funds an incoming hold has not delivered yet", counters: funded(0, 0, 50), amount: 1, available: 0 },
    {
      name: "funds outgoing holds reserve, however much is held into it",
      counters: funded(100, 100, 100),
      amount: 1,
      available: 0
    }
  ])("refuses a spend debit of $name with InsufficientFunds", ({ counters, amount, available }) => {
    const account = open("spend", "spend", counters)
    for (const pending of [false, true]) {
      const failure = failureOf(
        plan([leg("spend", -amount, pending), leg("settlement", amount, pending)], { locked: [account, settlement] })
      )
      assert.strictEqual(failure._tag, "InsufficientFunds", `pending: ${pending}`)
      assert.deepInclude(failure, { accountId: "spend", available, amount }, `pending: ${pending}`)
    }
  })

  it("checks funds only when asked, and never on settlement or external accounts", () => {
    const empty = open("spend", "spend", funded(0))
    const overdraw = [leg("spend", -1), leg("settlement", 1)]
    assert.isTrue(Result.isSuccess(plan(overdraw, { locked: [empty, settlement], checkFunds: false })))
    assert.isTrue(Result.isSuccess(plan([leg("external", -500), leg("spend", 500)])))
    assert.isTrue(Result.isSuccess(plan([leg("settlement", -500), leg("external", 500)])))
  })

  it("plans a hold's posting: the pending side reverses the hold, the posted side moves it", () => {
    const held = open("spend", "spend", funded(100, 100))
    const result = planTransaction(
      { ...header("post_pending"), pendingId: "hold-1" as LedgerTransactionId },
      [leg("spend", 100, true), leg("settlement", -100, true), leg("spend", -100), leg("settlement", 100)],
      { locked: [held, settlement], checkFunds: false }
    )
    assert.isTrue(Result.isSuccess(result))
    const counters = Result.getOrThrow(result).entries.reduce(
      (c, e) => (e.accountId === "spend" ? applyEntry(c, e, true) : c),
      held.counters
    )
    assert.deepStrictEqual(balanceOf(counters), { posted: 0, pending: 0, available: 0 })
  })

  const Kind = Schema.Literals(["spend", "settlement", "external"])

  it.prop(
    "a movement between two accounts of the team plans a balanced transaction of its amount, posted or held",
    {
      debitKind: Kind,
      creditKind: Kind,
      amount: int(1, 1_000_000_000),
      slack: int(0, 1_000_000_000),
      pending: Schema.Boolean
    },
    ({ debitKind, creditKind, amount, slack, pending }) => {
      const debit = open("debit", debitKind, funded(amount + slack))
      const credit = open("credit", creditKind)
      const { base, entries } = movementPosting(movement(debit, credit, amount), pending)
      const tx = Result.getOrThrow(
        planTransaction({ ...header(), ...base }, entries, { locked: [debit, credit], checkFunds: true })
      )
      assert.strictEqual(tx.kind, pending ? "pending" : "posted")
      assert.deepStrictEqual(
        tx.entries.map((e) => [e.accountId, e.amount, e.currency, e.pending]),
        [
          ["debit", -amount, "USD", pending],
          ["credit", amount, "USD", pending]
        ]
      )
    }
  )

  it.prop(
    "a spend account with posted funds and outgoing holds can give exactly what the holds leave",
    { posted: int(0, 1_000_000_000), held: int(0, 1_000_000_000), amount: int(1, 1_000_000_000) },
    ({ posted, held, amount }) => {
      const account = open("spend", "spend", funded(posted, Math.min(held, posted)))
      const free = posted - Math.min(held, posted)
      const { base, entries } = movementPosting(movement(account, settlement, amount), false)
      const result = planTransaction({ ...header(), ...base }, entries, {
        locked: [account, settlement],
        checkFunds: true
      })
      assert.strictEqual(Result.isSuccess(result), amount <= free)
    }
  )

  const Step = Schema.Struct({ amount: int(1, 5_000), hold: Schema.Boolean })

  it.prop(
    "transfers and holds accepted one after another never take a spend account below zero",
    { deposit: int(0, 20_000), steps: Schema.Array(Step) },
    ({ deposit, steps }) => {
      let counters = funded(deposit)
      let taken = 0
      for (const step of steps) {
        const account = open("spend", "spend", counters)
        const { base, entries } = movementPosting(movement(account, settlement, step.amount), step.hold)
        const result = planTransaction({ ...header(), ...base }, entries, {
          locked: [account, settlement],
          checkFunds: true
        })
        if (Result.isFailure(result)) {
          assert.strictEqual(result.failure._tag, "InsufficientFunds")
          assert.isAbove(step.amount, deposit - taken)
          continue
        }
        for (const e of result.success.entries) {
          if (e.accountId === "spend") counters = applyEntry(counters, e, false)
        }
        taken += step.amount
        assert.isAtLeast(balanceOf(counters).available, 0)
      }
      assert.isAtMost(taken, deposit)
      assert.strictEqual(balanceOf(counters).available, deposit - taken)
    }
  )
})

type Step =
  | { readonly deposit: string; readonly amount: number }
  | { readonly from: string; readonly to: string; readonly amount: number; readonly hold?: string }
  | { readonly post: string }
  | { readonly void: string }

describe("a spend account with holds into it and out of it", () => {
  const run = (steps: ReadonlyArray<Step>) => {
    const accounts = new Map(
      [open("a", "spend"), open("b", "spend"), settlement, external].map((l) => [l.account.id as string, l])
    )
    const holds = new Map<string, LedgerTransaction>()
    const outcomes = steps.map((step, i) => {
      const posting =
        "deposit" in step
          ? movementPosting(movement(external, accounts.get(step.deposit)!, step.amount), false)
          : "from" in step
            ? movementPosting(
                movement(accounts.get(step.from)!, accounts.get(step.to)!, step.amount),
                step.hold !== undefined
              )
            : resolutionPosting(
                holds.get("post" in step ? step.post : step.void)!,
                "post" in step ? "post_pending" : "void_pending"
              )
      const result = planTransaction(
        { ...header(), ...posting.base, id: `tx-${i}` as LedgerTransactionId },
        posting.entries,
        { locked: [...accounts.values()], checkFunds: posting.base.pendingId === null }
      )
      if (Result.isFailure(result)) return result.failure._tag
      for (const e of result.success.entries) {
        const row = accounts.get(e.accountId)!
        accounts.set(e.accountId, { ...row, counters: applyEntry(row.counters, e, result.success.pendingId !== null) })
      }
      if ("hold" in step && step.hold !== undefined) holds.set(step.hold, result.success)
      return "ok"
    })
    return { outcomes, balance: balanceOf(accounts.get("a")!.counters) }
  }

  it.each([
    {
      name: "a hold into A does not free what A holds out, so A cannot overdraw once the incoming hold is voided",
      steps: [
        { deposit: "a", amount: 100 },
        { deposit: "b", amount: 100 },
        { from: "b", to: "a", amount: 100, hold: "in" },
        { from: "a", to: "settlement", amount: 100, hold: "out" },
        { from: "a", to: "settlement", amount: 100 },
        { void: "in" },
        { post: "out" }
      ],
      outcomes: ["ok", "ok", "ok", "ok", "InsufficientFunds", "ok", "ok"],
      balance: { posted: 0, pending: 0, available: 0 }
    },
    {
      name: "an incoming hold still open does not raise what A can hold out",
      steps: [
        { from: "settlement", to: "a", amount: 1, hold: "in-1" },
        { deposit: "a", amount: 2_788 },
        { from: "settlement", to: "a", amount: 1, hold: "in-2" },
        { post: "in-1" },
        { from: "a", to: "settlement", amount: 2_789, hold: "out" },
        { from: "a", to: "settlement", amount: 1, hold: "more" }
      ],
      outcomes: ["ok", "ok", "ok", "ok", "ok", "InsufficientFunds"],
      balance: { posted: 2_789, pending: 2_788, available: 0 }
    },
    {
      name: "an incoming hold counts once posted",
      steps: [
        { deposit: "b", amount: 50 },
        { from: "b", to: "a", amount: 50, hold: "in" },
        { from: "a", to: "settlement", amount: 1 },
        { post: "in" },
        { from: "a", to: "settlement", amount: 50 }
      ],
      outcomes: ["ok", "ok", "InsufficientFunds", "ok", "ok"],
      balance: { posted: 0, pending: 0, available: 0 }
    }
  ] satisfies ReadonlyArray<{
    name: string
    steps: ReadonlyArray<Step>
    outcomes: ReadonlyArray<string>
    balance: { posted: number; pending: number; available: number }
  }>)("$name", ({ steps, outcomes, balance }) => {
    const ran = run(steps)
    assert.deepStrictEqual(ran.outcomes, outcomes)
    assert.deepStrictEqual(ran.balance, balance)
  })
})
