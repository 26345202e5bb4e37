import { assert, layer } from "@effect/vitest"
import { type Team, TeamId, TeamsRepo, type UserId, UsersRepo } from "@svc/domain"
import { Effect, type Layer, Option } from "effect"

const ROUNDS = 50

const identity = (email = "ada@example.com") => ({
  id: crypto.randomUUID() as UserId,
  email,
  fullName: "Ada Lovelace"
})

const team = (name: string, createdAt = new Date().toISOString()): Team => ({
  id: TeamId.make(crypto.randomUUID()),
  name,
  baseCurrency: "USD",
  createdAt
})

/** The behaviour every UsersRepo/TeamsRepo adapter must show. */
export const usersTeamsContract = <E>(name: string, ports: Layer.Layer<UsersRepo | TeamsRepo, E, never>) =>
  layer(ports, { timeout: "60 seconds" })(`Users and teams repositories (${name})`, (it) => {
    it.effect("ensure inserts a user once and afterwards returns the stored row unchanged", () =>
      Effect.gen(function* () {
        const users = yield* UsersRepo
        const who = identity()
        const first = yield* users.ensure(who)
        assert.deepStrictEqual(
          { id: first.id, email: first.email, fullName: first.fullName, currentTeamId: first.currentTeamId },
          { id: who.id, email: who.email, fullName: who.fullName, currentTeamId: null }
        )
        const again = yield* users.ensure({ ...who, email: "changed@example.com", fullName: null })
        assert.deepStrictEqual(again, first)
        assert.deepStrictEqual(yield* users.findById(who.id), Option.some(first))
      })
    )

    it.effect("concurrent ensure of one new user creates exactly one row and every caller gets it", () =>
      Effect.gen(function* () {
        const users = yield* UsersRepo
        for (let round = 0; round < ROUNDS; round++) {
          const who = identity()
          const results = yield* Effect.forEach(
            Array.from({ length: 16 }, () => who),
            (i) => users.ensure(i),
            { concurrency: "unbounded" }
          )
          const stored = yield* users.findById(who.id)
          assert.isTrue(Option.isSome(stored))
          for (const user of results) assert.deepStrictEqual(user, Option.getOrThrow(stored))
        }
      })
    )

    it.effect("an unknown user is absent", () =>
      Effect.gen(function* () {
        const users = yield* UsersRepo
        assert.isTrue(Option.isNone(yield* users.findById(crypto.randomUUID() as UserId)))
      })
    )

    it.effect("findById returns a stored team as inserted, and nothing for an unknown id", () =>
      Effect.gen(function* () {
        const teams = yield* TeamsRepo
        const t = team("Found", "2026-01-02T03:04:05.678Z")
        yield* teams.insert(t)
        assert.deepStrictEqual(yield* teams.findById(t.id), Option.some(t))
        assert.isTrue(Option.isNone(yield* teams.findById(TeamId.make(crypto.randomUUID()))))
      })
    )

    it.effect("setCurrentTeam changes only that user's current team", () =>
      Effect.gen(function* () {
        const users = yield* UsersRepo
        const teams = yield* TeamsRepo
        const a = yield* users.ensure(identity("a@example.com"))
        const b = yield* users.ensure(identity("b@example.com"))
        const t = team("A's team")
        yield* teams.insert(t)
        yield* teams.addMember(t.id, a.id, "owner")
        yield* users.setCurrentTeam(a.id, t.id)
        assert.strictEqual(Option.getOrThrow(yield* users.findById(a.id)).currentTeamId, t.id)
        assert.strictEqual(Option.getOrThrow(yield* users.findById(b.id)).currentTeamId, null)
      })
    )

    it.effect("memberships are isolated: a user sees only the teams they belong to", () =>
      Effect.gen(function* () {
        const users = yield* UsersRepo
        const teams = yield* TeamsRepo
        const a = yield* users.ensure(identity("a@example.com"))
        const b = yield* users.ensure(identity("b@example.com"))
        const older = team("Older", "2026-01-01T00:00:00.000Z")
        const newer = team("Newer", "2026-02-01T00:00:00.000Z")
        const other = team("B's team")
        for (const t of [older, newer, other]) yield* teams.insert(t)
        yield* teams.addMember(older.id, a.id, "owner")
        yield* teams.addMember(newer.id, a.id, "member")
        yield* teams.addMember(other.id, b.id, "owner")

        const mine = yield* teams.listForUser(a.id)
        assert.deepStrictEqual(
          mine.map((m) => [m.team.name, m.role]),
          [
            ["Newer", "member"],
            ["Older", "owner"]
          ]
        )
        assert.deepStrictEqual(mine[1]!.team, older)
        assert.isTrue(Option.isNone(yield* teams.membership(other.id, a.id)))
        assert.isTrue(Option.isNone(yield* teams.membership(older.id, b.id)))
        assert.deepStrictEqual(
          (yield* teams.listForUser(b.id)).map((m) => m.team.id),
          [other.id]
        )
        assert.deepStrictEqual(yield* teams.listForUser(crypto.randomUUID() as UserId), [])
      })
    )

    it.effect("adding a member twice keeps one membership with the latest role", () =>
      Effect.gen(function* () {
        const users = yield* UsersRepo
        const teams = yield* TeamsRepo
        const a = yield* users.ensure(identity())
        const t = team("Acme")
        yield* teams.insert(t)
        yield* teams.addMember(t.id, a.id, "member")
        yield* teams.addMember(t.id, a.id, "admin")
        assert.deepStrictEqual(
          (yield* teams.listForUser(a.id)).map((m) => m.role),
          ["admin"]
        )
        assert.strictEqual(Option.getOrThrow(yield* teams.membership(t.id, a.id)).role, "admin")
      })
    )
  })
