import { assert, describe, it } from "@effect/vitest"
import {
  CategoriesRepoMemory,
  EventOutboxMemory,
  LedgerRepoMemory,
  MemoryStore,
  PortsMemory,
  ReceiveHandlesRepoMemory,
  TeamsRepoMemory,
  TransactorMemory,
  UsersRepoMemory
} from "@svc/adapters-memory"
import {
  Ledger,
  PersistenceUnavailable,
  type TeamId,
  TeamOpening,
  Teams,
  TeamsRepo,
  type UserId,
  Users,
  UsersRepo
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { domainOver } from "../ledger/LedgerSetup.ts"

const identity = (email: string) => ({ id: crypto.randomUUID() as UserId, email, fullName: null })

const onMemory = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.provide(self, domainOver(PortsMemory))

/** The memory ports, except that adding a member fails as if the store went away. */
const PortsFailingOnAddMember = Layer.mergeAll(
  TransactorMemory,
  UsersRepoMemory,
  LedgerRepoMemory,
  EventOutboxMemory,
  ReceiveHandlesRepoMemory,
  CategoriesRepoMemory,
  Layer.effect(
    TeamsRepo,
    Effect.gen(function* () {
      const repo = yield* TeamsRepo
      return TeamsRepo.of({
        ...repo,
        addMember: () => Effect.fail(new PersistenceUnavailable({ operation: "addMember" }))
      })
    })
  ).pipe(Layer.provide(TeamsRepoMemory))
).pipe(Layer.provideMerge(MemoryStore.layer))

describe("Teams (domain, in-memory adapters)", () => {
  it.effect("create makes the caller owner and current team, and opens live and test EUR spend accounts", () =>
    Effect.gen(function* () {
      const teams = yield* Teams
      const opening = yield* TeamOpening
      const ledger = yield* Ledger
      const users = yield* UsersRepo
      const owner = identity("owner@example.com")
      const team = yield* opening.open(owner, { name: "Acme", baseCurrency: "EUR" })
      assert.strictEqual(team.name, "Acme")
      assert.strictEqual(team.baseCurrency, "EUR")

      const membership = yield* teams.membership(team.id, owner.id)
      assert.strictEqual(membership.role, "owner")
      assert.deepStrictEqual(membership.team, team)

      const user = Option.getOrThrow(yield* users.findById(owner.id))
      assert.strictEqual(user.currentTeamId, team.id)
      assert.strictEqual(user.email, "owner@example.com")
      assert.deepStrictEqual(
        Option.map(yield* teams.current(user), (m) => m.team.id),
        Option.some(team.id)
      )

      const spend = yield* ledger.accounts(team.id, { kind: "spend" })
      assert.deepStrictEqual(spend.map((a) => [a.mode, a.currency]).toSorted(), [
        ["live", "EUR"],
        ["test", "EUR"]
      ])
      for (const account of spend) assert.deepStrictEqual(account.balance, { posted: 0, pending: 0, available: 0 })
    }).pipe(onMemory)
  )

  it.effect("baseCurrency defaults to USD", () =>
    Effect.gen(function* () {
      const team = yield* (yield* TeamOpening).open(identity("a@example.com"), { name: "Plain" })
      assert.strictEqual(team.baseCurrency, "USD")
    }).pipe(onMemory)
  )

  it.effect("listForUser lists the caller's teams newest first; the latest becomes current", () =>
    Effect.gen(function* () {
      const teams = yield* Teams
      const opening = yield* TeamOpening
      const users = yield* UsersRepo
      const owner = identity("owner@example.com")
      const first = yield* opening.open(owner, { name: "First" })
      yield* TestClock.adjust("1 millis")
      const second = yield* opening.open(owner, { name: "Second" })
      yield* opening.open(identity("stranger@example.com"), { name: "Someone else's" })
      const listed = yield* teams.listForUser(owner.id)
      assert.deepStrictEqual(
        listed.map((m) => [m.team.id, m.role]),
        [
          [second.id, "owner"],
          [first.id, "owner"]
        ]
      )
      assert.strictEqual(Option.getOrThrow(yield* users.findById(owner.id)).currentTeamId, second.id)
      assert.deepStrictEqual(yield* teams.listForUser(crypto.randomUUID() as UserId), [])
    }).pipe(onMemory)
  )

  it.effect("membership of another user's team, or of no team at all, is TeamNotFound", () =>
    Effect.gen(function* () {
      const teams = yield* Teams
      const opening = yield* TeamOpening
      const alice = identity("alice@example.com")
      const bob = identity("bob@example.com")
      const alicesTeam = yield* opening.open(alice, { name: "Alice's" })
      yield* opening.open(bob, { name: "Bob's" })
      const refused = yield* Effect.flip(teams.membership(alicesTeam.id, bob.id))
      assert.strictEqual(refused._tag, "TeamNotFound")
      if (refused._tag === "TeamNotFound") assert.strictEqual(refused.teamId, alicesTeam.id)
      const unknown = crypto.randomUUID() as TeamId
      assert.strictEqual((yield* Effect.flip(teams.membership(unknown, alice.id)))._tag, "TeamNotFound")
    }).pipe(onMemory)
  )

  it.effect("a user without a team has no current team", () =>
    Effect.gen(function* () {
      const user = yield* (yield* Users).provision(identity("new@example.com"))
      assert.strictEqual(user.currentTeamId, null)
      assert.isTrue(Option.isNone(yield* (yield* Teams).current(user)))
    }).pipe(onMemory)
  )

  it.effect("provisioning is idempotent: the first identity's row is kept", () =>
    Effect.gen(function* () {
      const users = yield* Users
      const who = identity("first@example.com")
      const first = yield* users.provision(who)
      const again = yield* users.provision({ ...who, email: "second@example.com" })
      assert.deepStrictEqual(again, first)
    }).pipe(onMemory)
  )

  it.effect("create is all or nothing: a failure part-way leaves no team, member, account or user behind", () =>
    Effect.gen(function* () {
      const teams = yield* Teams
      const opening = yield* TeamOpening
      const ledger = yield* Ledger
      const users = yield* UsersRepo
      const owner = identity("owner@example.com")
      const failure = yield* Effect.flip(opening.open(owner, { name: "Doomed" }))
      assert.strictEqual(failure._tag, "PersistenceUnavailable")
      assert.deepStrictEqual(yield* teams.listForUser(owner.id), [])
      assert.isTrue(Option.isNone(yield* users.findById(owner.id)))
      const anyAccounts = yield* Effect.forEach(yield* teams.listForUser(owner.id), (m) =>
        ledger.accounts(m.team.id, {})
      )
      assert.deepStrictEqual(anyAccounts, [])
    }).pipe(Effect.provide(domainOver(PortsFailingOnAddMember)))
  )
})
