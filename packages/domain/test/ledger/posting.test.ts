import { assert, describe, it } from "@effect/vitest"
import { Arbitrary, Result, Schema } from "effect"
import { applyEntry, balanceOf, type EntryInput, emptyCounters, validateEntries } from "../../src/ledger/index.ts"
import type { AccountId } from "../../src/shared/index.ts"

const MAX = Number.MAX_SAFE_INTEGER

const account = (i: number) => `acct-${i}` as AccountId

const currencies: Record<string, string> = { "eur-0": "EUR", "eur-1": "EUR" }

const currencyOf = (id: AccountId) => (id.startsWith("acct-") ? "USD" : currencies[id])

const entries = (...amounts: ReadonlyArray<number>): Array<EntryInput> =>
  amounts.map((amount, i) => ({ accountId: account(i), amount }))

const refusal = (input: ReadonlyArray<EntryInput>) => {
  const result = validateEntries(input, currencyOf)
  if (Result.isSuccess(result)) return assert.fail(`expected ${JSON.stringify(input)} to be refused`)
  assert.strictEqual(result.failure._tag, "UnbalancedTransaction")
  return result.failure.message
}

const exactSum = (input: ReadonlyArray<EntryInput>) => input.reduce((s, e) => s + BigInt(e.amount), 0n)

const int = (minimum: number, maximum: number) => Schema.Int.check(Schema.isBetween({ minimum, maximum }))

const NonZero = (bound: number) => int(-bound, bound).check(Schema.makeFilter((n: number) => n !== 0))

describe("validateEntries", () => {
  it.each([
    { name: "no entries", input: [], message: "a ledger transaction needs at least two entries" },
    { name: "one entry", input: entries(5), message: "a ledger transaction needs at least two entries" },
    {
      name: "one account twice",
      input: [
        { accountId: account(0), amount: 5 },
        { accountId: account(0), amount: -5 }
      ],
      message: "each account may appear once"
    },
    { name: "zero amounts", input: entries(0, 0), message: "entry amounts are non-zero integers" },
    { name: "a zero among others", input: entries(5, 0, -5), message: "entry amounts are non-zero integers" },
    { name: "fractions", input: entries(1.5, -1.5), message: "entry amounts are non-zero integers" },
    { name: "NaN", input: entries(Number.NaN, 1), message: "entry amounts are non-zero integers" },
    { name: "infinities", input: entries(Infinity, -Infinity), message: "entry amounts are non-zero integers" },
    { name: "unsafe integers", input: entries(MAX + 1, -(MAX + 1)), message: "entry amounts are non-zero integers" },
    {
      name: "an unknown account",
      input: [
        { accountId: account(0), amount: 5 },
        { accountId: "nowhere" as AccountId, amount: -5 }
      ],
      message: "unknown account nowhere"
    },
    {
      name: "two currencies",
      input: [
        { accountId: account(0), amount: 5 },
        { accountId: "eur-0" as AccountId, amount: -5 }
      ],
      message: "all entries must share one currency"
    },
    { name: "a non-zero sum", input: entries(5, -4), message: "entries sum to 1, not zero" },
    { name: "a sum that only rounding hides", input: entries(MAX, 2, -MAX, -1), message: "entries sum to 1, not zero" }
  ])("refuses $name", ({ input, message }) => {
    assert.strictEqual(refusal(input), message)
  })

  it.each([
    { name: "a two-legged transfer", input: entries(5, -5), currency: "USD" },
    { name: "a split across three accounts", input: entries(-10, 3, 7), currency: "USD" },
    { name: "the largest safe amounts", input: entries(MAX, 2, -MAX, -2), currency: "USD" },
    {
      name: "euro accounts",
      input: [
        { accountId: "eur-0" as AccountId, amount: -1 },
        { accountId: "eur-1" as AccountId, amount: 1 }
      ],
      currency: "EUR"
    }
  ])("accepts $name and names its currency", ({ input, currency }) => {
    assert.deepStrictEqual(validateEntries(input, currencyOf), Result.succeed(currency))
  })

  const Legs = Arbitrary.array(Arbitrary.schema(NonZero(1_000_000_000_000)), { minLength: 1, maxLength: 7 })
  const balanced = (legs: ReadonlyArray<number>) => entries(...legs, -legs.reduce((s, n) => s + n, 0))

  it.prop("accepts every balanced set of non-zero amounts on distinct accounts of one currency", [Legs], ([legs]) => {
    const input = balanced(legs)
    if (input.at(-1)!.amount === 0) return
    assert.deepStrictEqual(validateEntries(input, currencyOf), Result.succeed("USD"))
  })

  it.prop(
    "refuses a balanced set once one amount moves, naming the difference",
    [Legs, int(0, 7), NonZero(1_000)],
    ([legs, at, delta]) => {
      const input = balanced(legs)
      const i = at % input.length
      const moved = input.map((e, j) => (j === i ? { ...e, amount: e.amount + delta } : e))
      if (moved.some((e) => e.amount === 0)) return
      assert.strictEqual(refusal(moved), `entries sum to ${delta}, not zero`)
    }
  )

  it.prop(
    "over the whole safe range, accepts exactly the sets whose exact sum is zero",
    [Arbitrary.array(Arbitrary.schema(NonZero(MAX)), { minLength: 1, maxLength: 4 }), int(-2, 2)],
    ([legs, offset]) => {
      const input = entries(...legs, ...legs.map((n) => -n))
      const last = input.length - 1
      input[last] = { accountId: account(last), amount: input[last]!.amount + offset }
      if (!Number.isSafeInteger(input[last]!.amount) || input[last]!.amount === 0) return
      const result = validateEntries(input, currencyOf)
      assert.strictEqual(Result.isSuccess(result), exactSum(input) === 0n, JSON.stringify(input))
    }
  )
})

describe("balanceOf and applyEntry", () => {
  const zero = emptyCounters
  const Hold = Schema.Struct({
    amount: int(1, 1_000_000_000),
    outgoing: Schema.Boolean,
    resolution: Schema.Literals(["none", "post", "void"])
  })

  it("starts empty", () => {
    assert.deepStrictEqual(balanceOf(zero), { posted: 0, pending: 0, available: 0 })
  })

  it.each([
    {
      name: "a deposit",
      apply: [{ amount: 100, pending: false }],
      balance: { posted: 100, pending: 0, available: 100 }
    },
    {
      name: "an outgoing hold reserves funds",
      apply: [
        { amount: 100, pending: false },
        { amount: -30, pending: true }
      ],
      balance: { posted: 100, pending: 30, available: 70 }
    },
    {
      name: "an incoming hold is shown as negative pending and adds nothing to available",
      apply: [
        { amount: 100, pending: false },
        { amount: 40, pending: true }
      ],
      balance: { posted: 100, pending: -40, available: 100 }
    },
    {
      name: "an incoming hold does not give back what an outgoing one reserves",
      apply: [
        { amount: 100, pending: false },
        { amount: 100, pending: true },
        { amount: -100, pending: true }
      ],
      balance: { posted: 100, pending: 0, available: 0 }
    },
    {
      name: "a posted hold leaves pending and lowers posted",
      apply: [
        { amount: 100, pending: false },
        { amount: -30, pending: true },
        { amount: 30, pending: true, resolving: true },
        { amount: -30, pending: false, resolving: true }
      ],
      balance: { posted: 70, pending: 0, available: 70 }
    },
    {
      name: "a voided hold gives the funds back",
      apply: [
        { amount: 100, pending: false },
        { amount: -30, pending: true },
        { amount: 30, pending: true, resolving: true }
      ],
      balance: { posted: 100, pending: 0, available: 100 }
    },
    {
      name: "a voided incoming hold leaves an outgoing one reserved",
      apply: [
        { amount: 100, pending: false },
        { amount: 50, pending: true },
        { amount: -80, pending: true },
        { amount: -50, pending: true, resolving: true }
      ],
      balance: { posted: 100, pending: 80, available: 20 }
    }
  ])("$name", ({ apply, balance }) => {
    const counters = apply.reduce((c, e) => applyEntry(c, e, "resolving" in e), zero)
    assert.deepStrictEqual(balanceOf(counters), balance)
  })

  it.prop(
    "posted is the signed sum of posted entries, pending the negated sum of pending ones, and only outstanding outgoing holds lower available",
    [Schema.Array(Hold)],
    ([holds]) => {
      const applied = holds.flatMap(({ amount, outgoing, resolution }) => {
        const held = outgoing ? -amount : amount
        const hold = [{ amount: held, pending: true, resolving: false }]
        if (resolution === "none") return hold
        const release = { amount: -held, pending: true, resolving: true }
        return resolution === "void"
          ? [...hold, release]
          : [...hold, release, { amount: held, pending: false, resolving: true }]
      })
      const counters = applied.reduce((c, e) => applyEntry(c, e, e.resolving), zero)
      const posted = applied.filter((e) => !e.pending).reduce((s, e) => s + e.amount, 0)
      const held = applied.filter((e) => e.pending).reduce((s, e) => s - e.amount, 0)
      const reserved = holds.filter((h) => h.outgoing && h.resolution === "none").reduce((s, h) => s + h.amount, 0)
      const balance = balanceOf(counters)
      assert.strictEqual(balance.posted, posted)
      assert.strictEqual(balance.pending, held)
      assert.strictEqual(balance.available, posted - reserved)
      assert.isAtMost(balance.available, balance.posted)
    }
  )
})
