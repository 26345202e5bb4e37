import { assert, layer } from "@effect/vitest"
import { type AccountId, Ledger, LedgerRepo, type LedgerTransactionId, pageRequest, Transactor } from "@svc/domain"
import { Deferred, Effect, Fiber, type Layer, Option } from "effect"
import { domainOver, type LedgerPorts, newTeam } from "./LedgerSetup.ts"

/**
 * How every LedgerRepo/Transactor adapter keeps accounts: opening, ensuring, listing, locking, isolation, paging.
 * `untilLockWait` returns once a statement of another connection waits on a lock (adapters that serialise writes
 * before they start have nothing to wait for).
 */
export const ledgerAccountsContract = <E, R = never>(
  name: string,
  ports: Layer.Layer<LedgerPorts<R>, E, never>,
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
