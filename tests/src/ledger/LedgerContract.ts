import { assert, layer } from "@effect/vitest"
import {
  type AccountId,
  Ledger,
  LedgerRepo,
  type LedgerTransaction,
  type LedgerTransactionId,
  pageRequest,
  type TeamId,
  Teams,
  type TeamsRepo,
  Transactor,
  type UserId,
  Users,
  type UsersRepo
} from "@svc/domain"
import { Deferred, Effect, Fiber, Layer, Option } from "effect"

/** The domain services over whichever ports the caller provides. */
export const domainOver = <E, R>(ports: Layer.Layer<R, E>) =>
  Layer.mergeAll(Users.layer, Teams.layer).pipe(Layer.provideMerge(Ledger.layer), Layer.provideMerge(ports))

/** A fresh team with its owner; returns the team and its live and test spend accounts. */
export const newTeam = Effect.gen(function* () {
  const teams = yield* Teams
  const ledger = yield* Ledger
  const owner = { id: crypto.randomUUID() as UserId, email: "owner@example.com", fullName: "Owner" }
  const team = yield* teams.create(owner, { name: "Acme" })
  const spend = yield* ledger.accounts(team.id, { kind: "spend" })
  const live = spend.find((a) => a.mode === "live")!
  const test = spend.find((a) => a.mode === "test")!
  return { team, owner, live, test }
})

/** A new team whose test spend account holds `funds`, and a movement builder from it to the team's settlement account. */
const fundedTestTeam = (funds: number) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const created = yield* newTeam
    const settlement = yield* ledger.settlementAccount(created.team.id, "test", "USD")
    if (funds > 0) {
      yield* ledger.deposit({
        teamId: created.team.id,
        mode: "test",
        accountId: created.test.id,
        amount: funds,
        currency: "USD",
        reference: "funding"
      })
    }
    const spend = (reference: string, amount: number) => ({
      teamId: created.team.id,
      mode: "test" as const,
      code: "spend_request",
      reference,
      debitAccountId: created.test.id,
      creditAccountId: settlement.id,
      amount
    })
    return { ...created, settlement, spend }
  })

const allTransactions = (teamId: TeamId) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const out: Array<LedgerTransaction> = []
    let cursor: string | undefined
    do {
      const page = yield* pageRequest(cursor, 100)
      const rows = yield* ledger.transactions(teamId, {}, page)
      out.push(...rows.slice(0, 100))
      const last = rows[99]
      cursor =
        rows.length > 100 && last
          ? Buffer.from(JSON.stringify({ createdAt: last.createdAt, id: last.id })).toString("base64url")
          : undefined
    } while (cursor !== undefined)
    return out
  })

const byAccount = (entries: ReadonlyArray<{ readonly accountId: string; readonly amount: number }>) =>
  entries.map((e) => [e.accountId, e.amount] as const).toSorted(([a], [b]) => a.localeCompare(b))

/** Each hold is resolved at most once, and its resolution releases exactly what it held and posts at most that. */
const assertHoldsResolveOnce = (txs: ReadonlyArray<LedgerTransaction>) => {
  const holds = new Map(txs.filter((t) => t.kind === "pending").map((t) => [t.id as string, t]))
  const resolutions = txs.filter((t) => t.pendingId !== null)
  assert.strictEqual(new Set(resolutions.map((t) => t.pendingId)).size, resolutions.length, "a hold resolves once")
  for (const resolution of resolutions) {
    const hold = holds.get(resolution.pendingId!)
    assert.isDefined(hold, `resolution ${resolution.id} resolves a hold`)
    const held = byAccount(hold!.entries)
    const side = (pending: boolean) => byAccount(resolution.entries.filter((e) => e.pending === pending))
    assert.deepStrictEqual(
      side(true),
      byAccount(hold!.entries.map((e) => ({ accountId: e.accountId, amount: -e.amount }))),
      `resolution ${resolution.id} releases exactly its hold`
    )
    assert.deepStrictEqual(
      side(false),
      resolution.kind === "post_pending" ? held : [],
      `resolution ${resolution.id} posts exactly the held amounts, or nothing when voided`
    )
  }
}

/**
 * Every invariant of a double-entry ledger for one team: transactions balance, balances equal their entries, holds
 * resolve at most once and exactly, spend accounts never go negative.
 */
export const assertLedgerInvariants = (teamId: TeamId) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const txs = yield* allTransactions(teamId)
    assertHoldsResolveOnce(txs)
    const sums = new Map<string, { posted: number; pending: number }>()
    for (const tx of txs) {
      for (const pending of [true, false]) {
        const group = tx.entries.filter((e) => e.pending === pending)
        assert.strictEqual(
          group.reduce((s, e) => s + e.amount, 0),
          0,
          `transaction ${tx.id} ${pending ? "pending" : "posted"} entries sum to zero`
        )
      }
      for (const e of tx.entries) {
        const s = sums.get(e.accountId) ?? { posted: 0, pending: 0 }
        sums.set(
          e.accountId,
          e.pending ? { ...s, pending: s.pending + e.amount } : { ...s, posted: s.posted + e.amount }
        )
      }
    }
    for (const account of yield* ledger.accounts(teamId, {})) {
      const s = sums.get(account.id) ?? { posted: 0, pending: 0 }
      assert.strictEqual(account.balance.posted, s.posted, `posted balance of ${account.kind} equals its entries`)
      assert.strictEqual(
        account.balance.pending,
        0 - s.pending,
        `pending balance of ${account.kind} equals its entries`
      )
      if (account.kind === "spend") {
        assert.isAtLeast(account.balance.posted, 0, "a spend account's posted balance never goes negative")
        assert.isAtLeast(account.balance.available, 0, "a spend account's available balance never goes negative")
      }
    }
  })

/**
 * The ledger's behaviour every LedgerRepo/Transactor adapter must show. `untilLockWait` returns once a statement of
 * another connection waits on a lock (adapters that serialise writes before they start have nothing to wait for).
 */
export const ledgerContract = <E, R = never>(
  name: string,
  ports: Layer.Layer<Transactor | UsersRepo | TeamsRepo | LedgerRepo | R, E, never>,
  untilLockWait: Effect.Effect<void, never, R> = Effect.void as Effect.Effect<void, never, R>
) =>
  layer(domainOver(ports), { timeout: "60 seconds" })(`Ledger contract (${name})`, (it) => {
    it.effect("a new team opens empty live and test spend accounts plus settlement and external accounts", () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const { team, live, test } = yield* newTeam
        assert.deepStrictEqual(live.balance, { posted: 0, pending: 0, available: 0 })
        assert.strictEqual(live.currency, "USD")
        assert.strictEqual(test.mode, "test")
        const kinds = (yield* ledger.accounts(team.id, { mode: "live" })).map((a) => a.kind).toSorted()
        assert.deepStrictEqual(kinds, ["external", "settlement", "spend"])
      })
    )

    it.effect(
      "a credential's spend account: the one it names, else the mode's first; never another kind, mode or team",
      () =>
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const { team, live, test } = yield* newTeam
          const other = yield* newTeam
          const second = yield* ledger.openTeamAccounts({
            teamId: team.id,
            mode: "test",
            name: "Second",
            currency: "USD"
          })
          assert.strictEqual((yield* ledger.spendAccount(team.id, "test", second.id)).id, second.id)
          assert.strictEqual((yield* ledger.spendAccount(team.id, "test", null)).id, test.id)
          assert.strictEqual((yield* ledger.spendAccount(team.id, "live", null)).id, live.id)
          const settlement = yield* ledger.settlementAccount(team.id, "test", "USD")
          for (const [mode, id] of [
            ["test", settlement.id],
            ["live", test.id],
            ["test", other.test.id]
          ] as const) {
            const error = yield* Effect.flip(ledger.spendAccount(team.id, mode, id))
            assert.strictEqual(error._tag, "AccountNotFound")
          }
        })
    )

    it.effect("concurrent ensures of a team's settlement and external accounts give exactly one of each", () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const repo = yield* LedgerRepo
        const { team } = yield* newTeam
        const opened = yield* Effect.forEach(
          Array.from({ length: 8 }, (_, i) => i),
          (i) => ledger.openTeamAccounts({ teamId: team.id, mode: "live", name: `EUR ${i}`, currency: "EUR" }),
          { concurrency: "unbounded" }
        )
        const eur = (yield* ledger.accounts(team.id, { mode: "live" })).filter((a) => a.currency === "EUR")
        assert.deepStrictEqual(eur.map((a) => a.kind).toSorted(), [
          "external",
          "settlement",
          ...opened.map(() => "spend")
        ])
        const settlement = yield* ledger.settlementAccount(team.id, "live", "EUR")
        const ensured = yield* Effect.forEach(
          Array.from({ length: 8 }, () => ({
            ...settlement,
            id: crypto.randomUUID() as AccountId,
            kind: "settlement" as const
          })),
          (account) => repo.ensureAccount(account),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(new Set(ensured.map((a) => a.id)), new Set([settlement.id]))
        assert.strictEqual((yield* ledger.accounts(team.id, { kind: "settlement" })).length, 3)
      })
    )

    it.effect("an ensure that waits on another not yet committed gets that one's account, not an error", () =>
      Effect.gen(function* () {
        const repo = yield* LedgerRepo
        const transactor = yield* Transactor
        const { team } = yield* newTeam
        const external = (id: string) => ({
          id: id as AccountId,
          teamId: team.id,
          mode: "test" as const,
          kind: "external" as const,
          name: "External GBP",
          currency: "GBP",
          createdAt: new Date().toISOString()
        })
        const [firstId, secondId] = [crypto.randomUUID(), crypto.randomUUID()]
        const inserted = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const first = yield* transactor
          .withTransaction(
            Effect.gen(function* () {
              const account = yield* repo.ensureAccount(external(firstId))
              yield* Deferred.succeed(inserted, undefined)
              yield* Deferred.await(release)
              return account
            })
          )
          .pipe(Effect.forkChild)
        yield* Deferred.await(inserted)
        const second = yield* transactor.withTransaction(repo.ensureAccount(external(secondId))).pipe(Effect.forkChild)
        yield* untilLockWait
        yield* Deferred.succeed(release, undefined)
        assert.deepStrictEqual([(yield* Fiber.join(first)).id, (yield* Fiber.join(second)).id], [firstId, firstId])
      })
    )

    it.effect("accounts created in the same millisecond list and are found oldest first, then by id", () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const repo = yield* LedgerRepo
        const { team } = yield* newTeam
        const spendAccount = (createdAt: string) => ({
          id: crypto.randomUUID() as AccountId,
          teamId: team.id,
          mode: "test" as const,
          kind: "spend" as const,
          name: "CHF",
          currency: "CHF",
          createdAt
        })
        const tied = Array.from({ length: 6 }, () => spendAccount("2026-03-01T00:00:00.000Z"))
        const later = spendAccount("2026-03-01T00:00:00.001Z")
        const oldest = { ...spendAccount("2026-02-28T23:59:59.999Z"), id: `ffffffff${crypto.randomUUID().slice(8)}` }
        const inserted = [later, ...tied.toSorted((a, b) => b.id.localeCompare(a.id)), oldest as typeof later]
        for (const account of inserted) yield* repo.insertAccount(account)
        const expected = [oldest.id, ...tied.map((a) => a.id).toSorted(), later.id]
        const listed = (yield* ledger.accounts(team.id, { mode: "test", kind: "spend" })).filter(
          (a) => a.currency === "CHF"
        )
        assert.deepStrictEqual(
          listed.map((a) => a.id),
          expected
        )
        const found = yield* repo.findAccountByKind(team.id, "test", "spend", "CHF")
        assert.strictEqual(Option.getOrThrow(found).id, oldest.id)
        yield* repo.insertAccount({
          ...spendAccount(oldest.createdAt),
          id: `00000000${crypto.randomUUID().slice(8)}` as AccountId
        })
        assert.strictEqual(
          Option.getOrThrow(yield* repo.findAccountByKind(team.id, "test", "spend", "CHF")).id.slice(0, 8),
          "00000000"
        )
      })
    )

    it.effect("lockAccounts answers in id order, each account once, leaving unknown ids out", () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const repo = yield* LedgerRepo
        const transactor = yield* Transactor
        const { team, live, test } = yield* newTeam
        const others = (yield* ledger.accounts(team.id, {})).map((a) => a.id)
        const unknown = crypto.randomUUID() as AccountId
        const asked = [...others.toSorted().toReversed(), unknown, test.id, live.id]
        const locked = yield* transactor.withTransaction(repo.lockAccounts(asked))
        assert.deepStrictEqual(
          locked.map((l) => l.account.id),
          others.toSorted()
        )
        assert.deepStrictEqual(
          locked.map((l) => l.counters),
          others.map(() => ({ postedSum: 0, pendingOut: 0, pendingIn: 0 }))
        )
        assert.deepStrictEqual(yield* transactor.withTransaction(repo.lockAccounts([unknown])), [])
      })
    )

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

    it.effect("teams are isolated: another team's account and hold are not found", () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const a = yield* newTeam
        const b = yield* newTeam
        assert.strictEqual((yield* Effect.flip(ledger.account(b.team.id, a.live.id)))._tag, "AccountNotFound")
        const missing = crypto.randomUUID() as LedgerTransactionId
        assert.strictEqual((yield* Effect.flip(ledger.postHold(b.team.id, missing)))._tag, "HoldNotFound")
        const cross = yield* Effect.flip(
          ledger.deposit({
            teamId: b.team.id,
            mode: "live",
            accountId: a.live.id,
            amount: 1,
            currency: "USD",
            reference: "x"
          })
        )
        assert.strictEqual(cross._tag, "AccountNotFound")
      })
    )

    it.effect("ledger transactions page newest first with a cursor", () =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const { team, test } = yield* newTeam
        for (let i = 0; i < 5; i++) {
          yield* ledger.deposit({
            teamId: team.id,
            mode: "test",
            accountId: test.id,
            amount: 100 + i,
            currency: "USD",
            reference: `p${i}`
          })
        }
        const first = yield* ledger.transactions(
          team.id,
          { accountId: test.id as AccountId },
          yield* pageRequest(undefined, 2)
        )
        assert.strictEqual(first.length, 3)
        assert.deepStrictEqual(
          first.slice(0, 2).map((t) => t.reference),
          ["p4", "p3"]
        )
        assert.isTrue(Option.isNone((yield* pageRequest(undefined, 2)).after))
      })
    )
  })
