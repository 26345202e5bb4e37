import { assert, layer } from "@effect/vitest"
import { Ledger, Transactor } from "@svc/domain"
import { Effect, Exit, type Layer } from "effect"
import {
  allTransactions,
  assertLedgerInvariants,
  domainOver,
  fundedTestTeam,
  type LedgerPorts,
  newTeam
} from "./LedgerSetup.ts"

/** How every LedgerRepo/Transactor adapter moves money: deposits, transfers, holds and their resolution, under concurrency. */
export const ledgerPostingsContract = <E>(name: string, ports: Layer.Layer<LedgerPorts, E, never>) =>
  layer(domainOver(ports), { timeout: "60 seconds" })(`Ledger contract (${name})`, (it) => {
    it.effect("a deposit credits the spend account once per reference", () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const { team, test } = yield* newTeam
        yield* ledger.deposit({
          teamId: team.id,
          mode: "test",
          accountId: test.id,
          amount: 20_000,
          currency: "USD",
          reference: "dep-1"
        })
        const again = yield* Effect.flip(
          ledger.deposit({
            teamId: team.id,
            mode: "test",
            accountId: test.id,
            amount: 20_000,
            currency: "USD",
            reference: "dep-1"
          })
        )
        assert.strictEqual(again._tag, "DuplicateLedgerTransaction")
        assert.deepStrictEqual((yield* ledger.account(team.id, test.id)).balance, {
          posted: 20_000,
          pending: 0,
          available: 20_000
        })
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("a refused duplicate leaves the caller's transaction usable: its later writes commit", () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const transactor = yield* Transactor
        const { team, test } = yield* newTeam
        const deposit = (reference: string) =>
          ledger.deposit({
            teamId: team.id,
            mode: "test",
            accountId: test.id,
            amount: 5_000,
            currency: "USD",
            reference
          })
        const refused = yield* transactor.withTransaction(
          Effect.gen(function* () {
            yield* deposit("unit-1")
            const again = yield* Effect.flip(deposit("unit-1"))
            yield* deposit("unit-2")
            return again._tag
          })
        )
        assert.strictEqual(refused, "DuplicateLedgerTransaction")
        assert.strictEqual((yield* ledger.account(team.id, test.id)).balance.posted, 10_000)
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("a hold lowers available; posting it moves the money once; a second post or a void is refused", () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const { team, test, settlement, spend } = yield* fundedTestTeam(10_000)
        const hold = yield* ledger.hold(spend("sr-1", 2_500))
        assert.deepStrictEqual((yield* ledger.account(team.id, test.id)).balance, {
          posted: 10_000,
          pending: 2_500,
          available: 7_500
        })
        yield* ledger.postHold(team.id, hold.id)
        assert.deepStrictEqual((yield* ledger.account(team.id, test.id)).balance, {
          posted: 7_500,
          pending: 0,
          available: 7_500
        })
        assert.strictEqual((yield* ledger.account(team.id, settlement.id)).balance.posted, 2_500)
        assert.strictEqual((yield* Effect.flip(ledger.postHold(team.id, hold.id)))._tag, "HoldAlreadyResolved")
        assert.strictEqual((yield* Effect.flip(ledger.voidHold(team.id, hold.id)))._tag, "HoldAlreadyResolved")
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("posting part of a hold posts that amount and releases the rest, once; more than held is refused", () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const { team, test, settlement, spend } = yield* fundedTestTeam(10_000)
        const hold = yield* ledger.hold(spend("auth-1", 4_000))
        const over = yield* Effect.exit(ledger.postHold(team.id, hold.id, 4_001))
        assert.isTrue(Exit.hasDies(over))
        const none = yield* Effect.exit(ledger.postHold(team.id, hold.id, 0))
        assert.isTrue(Exit.hasDies(none))
        const posting = yield* ledger.postHold(team.id, hold.id, 2_500)
        assert.strictEqual(posting.kind, "post_pending")
        assert.strictEqual(posting.pendingId, hold.id)
        assert.deepStrictEqual((yield* ledger.account(team.id, test.id)).balance, {
          posted: 7_500,
          pending: 0,
          available: 7_500
        })
        assert.deepStrictEqual((yield* ledger.account(team.id, settlement.id)).balance, {
          posted: 2_500,
          pending: 0,
          available: 2_500
        })
        assert.strictEqual((yield* Effect.flip(ledger.postHold(team.id, hold.id, 1_000)))._tag, "HoldAlreadyResolved")
        assert.strictEqual((yield* Effect.flip(ledger.voidHold(team.id, hold.id)))._tag, "HoldAlreadyResolved")
        const whole = yield* ledger.hold(spend("auth-2", 1_000))
        yield* ledger.postHold(team.id, whole.id, 1_000)
        assert.strictEqual((yield* ledger.account(team.id, test.id)).balance.posted, 6_500)
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("voiding a hold releases it exactly once", () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const { team, test, spend } = yield* fundedTestTeam(5_000)
        const hold = yield* ledger.hold(spend("sr-v", 5_000))
        assert.strictEqual((yield* ledger.account(team.id, test.id)).balance.available, 0)
        yield* ledger.voidHold(team.id, hold.id)
        assert.deepStrictEqual((yield* ledger.account(team.id, test.id)).balance, {
          posted: 5_000,
          pending: 0,
          available: 5_000
        })
        assert.strictEqual((yield* Effect.flip(ledger.voidHold(team.id, hold.id)))._tag, "HoldAlreadyResolved")
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("a hold into a spend account never frees that account's funds held by its outgoing holds", () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const { team, test, settlement, spend } = yield* fundedTestTeam(100)
        const other = yield* ledger.openTeamAccounts({ teamId: team.id, mode: "test", name: "B", currency: "USD" })
        yield* ledger.deposit({
          teamId: team.id,
          mode: "test",
          accountId: other.id,
          amount: 100,
          currency: "USD",
          reference: "funding-b"
        })
        const incoming = yield* ledger.hold({ ...spend("in", 100), debitAccountId: other.id, creditAccountId: test.id })
        const outgoing = yield* ledger.hold(spend("out", 100))
        assert.deepStrictEqual((yield* ledger.account(team.id, test.id)).balance, {
          posted: 100,
          pending: 0,
          available: 0
        })
        const refused = yield* Effect.flip(ledger.transfer(spend("more", 100)))
        assert.deepInclude(refused, { _tag: "InsufficientFunds", available: 0, amount: 100 })
        yield* ledger.voidHold(team.id, incoming.id)
        yield* ledger.postHold(team.id, outgoing.id)
        assert.deepStrictEqual((yield* ledger.account(team.id, test.id)).balance, {
          posted: 0,
          pending: 0,
          available: 0
        })
        assert.strictEqual((yield* ledger.account(team.id, settlement.id)).balance.posted, 100)
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect(
      "incoming holds count only once posted: a spend account gives exactly its posted funds less its holds",
      () =>
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const { team, test, settlement, spend } = yield* fundedTestTeam(0)
          const fromSettlement = (reference: string) => ({
            ...spend(reference, 1),
            debitAccountId: settlement.id,
            creditAccountId: test.id
          })
          const first = yield* ledger.hold(fromSettlement("in-1"))
          yield* ledger.deposit({
            teamId: team.id,
            mode: "test",
            accountId: test.id,
            amount: 2_788,
            currency: "USD",
            reference: "funding-2"
          })
          yield* ledger.hold(fromSettlement("in-2"))
          yield* ledger.postHold(team.id, first.id)
          yield* ledger.hold(spend("out", 2_789))
          assert.deepStrictEqual((yield* ledger.account(team.id, test.id)).balance, {
            posted: 2_789,
            pending: 2_788,
            available: 0
          })
          const refused = yield* Effect.flip(ledger.hold(spend("more", 1)))
          assert.deepInclude(refused, { _tag: "InsufficientFunds", available: 0, amount: 1 })
          yield* assertLedgerInvariants(team.id)
        })
    )

    it.effect("a debit beyond available is refused with InsufficientFunds and records nothing", () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const { team, live } = yield* newTeam
        const settlement = yield* ledger.settlementAccount(team.id, "live", "USD")
        const error = yield* Effect.flip(
          ledger.transfer({
            teamId: team.id,
            mode: "live",
            code: "spend_request",
            reference: "x",
            debitAccountId: live.id,
            creditAccountId: settlement.id,
            amount: 1
          })
        )
        assert.strictEqual(error._tag, "InsufficientFunds")
        assert.strictEqual((yield* allTransactions(team.id)).length, 0)
      })
    )

    it.effect("50 concurrent holds of 10.00 against 200.00 reserve exactly 20 and never overdraw", () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const { team, test, spend } = yield* fundedTestTeam(20_000)
        const results = yield* Effect.forEach(
          Array.from({ length: 50 }, (_, i) => i),
          (i) => Effect.result(ledger.hold(spend(`c-${i}`, 1_000))),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(results.filter((r) => r._tag === "Success").length, 20)
        assert.deepStrictEqual((yield* ledger.account(team.id, test.id)).balance, {
          posted: 20_000,
          pending: 20_000,
          available: 0
        })
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect(
      "concurrent holds into and out of one spend account: the outgoing ones reserve at most its posted funds",
      () =>
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const { team, test, spend } = yield* fundedTestTeam(10_000)
          const other = yield* ledger.openTeamAccounts({ teamId: team.id, mode: "test", name: "B", currency: "USD" })
          yield* ledger.deposit({
            teamId: team.id,
            mode: "test",
            accountId: other.id,
            amount: 20_000,
            currency: "USD",
            reference: "funding-b"
          })
          const attempts = Array.from({ length: 40 }, (_, i) =>
            i % 2 === 0
              ? ledger.hold(spend(`out-${i}`, 1_000))
              : ledger.hold({ ...spend(`in-${i}`, 1_000), debitAccountId: other.id, creditAccountId: test.id })
          )
          const results = yield* Effect.forEach(attempts, Effect.result, { concurrency: "unbounded" })
          const outgoing = results.filter((r, i) => i % 2 === 0 && r._tag === "Success")
          assert.strictEqual(outgoing.length, 10)
          assert.isTrue(results.every((r, i) => i % 2 === 0 || r._tag === "Success"))
          assert.deepStrictEqual((yield* ledger.account(team.id, test.id)).balance, {
            posted: 10_000,
            pending: -10_000,
            available: 0
          })
          yield* assertLedgerInvariants(team.id)
        })
    )

    it.effect("concurrent post and void of one hold: exactly one wins", () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const { team, test, spend } = yield* fundedTestTeam(3_000)
        const hold = yield* ledger.hold(spend("race", 3_000))
        const attempts = [0, 1, 2, 3, 4, 5].map((i) =>
          i % 2 === 0 ? ledger.postHold(team.id, hold.id) : ledger.voidHold(team.id, hold.id)
        )
        const results = yield* Effect.forEach(attempts, Effect.result, { concurrency: "unbounded" })
        assert.strictEqual(results.filter((r) => r._tag === "Success").length, 1)
        assert.strictEqual((yield* ledger.account(team.id, test.id)).balance.pending, 0)
        yield* assertLedgerInvariants(team.id)
      })
    )
  })
