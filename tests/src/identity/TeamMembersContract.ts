import { assert, layer } from "@effect/vitest"
import { type Team, TeamId, type TeamInvite, TeamInvitesRepo, TeamsRepo, type UserId, UsersRepo } from "@svc/domain"
import { Effect, type Layer, Option } from "effect"

const user = (email: string) => ({ id: crypto.randomUUID() as UserId, email, fullName: null })

const team = (name = "Acme"): Team => ({
  id: TeamId.make(crypto.randomUUID()),
  name,
  baseCurrency: "USD",
  createdAt: new Date().toISOString()
})

const HOUR = 3_600_000

/** The members, roles and invitations every TeamsRepo / TeamInvitesRepo / UsersRepo adapter must keep. */
export const teamMembersContract = <E>(
  name: string,
  ports: Layer.Layer<UsersRepo | TeamsRepo | TeamInvitesRepo, E, never>
) =>
  layer(ports, { timeout: "60 seconds" })(`team members and invitations (${name})`, (it) => {
    it.effect("members come with their user, oldest first; roles change; removal clears only that current team", () =>
      Effect.gen(function* () {
        const users = yield* UsersRepo
        const teams = yield* TeamsRepo
        const acme = team()
        const globex = team("Globex")
        yield* teams.insert(acme)
        yield* teams.insert(globex)
        const ada = yield* users.ensure(user("ada@example.com"))
        const bob = yield* users.ensure(user("bob@example.com"))
        yield* teams.addMember(acme.id, ada.id, "owner")
        yield* teams.addMember(acme.id, bob.id, "member")
        yield* teams.addMember(globex.id, bob.id, "admin")
        yield* users.setCurrentTeam(bob.id, acme.id)
        yield* users.setCurrentTeam(ada.id, acme.id)

        const members = yield* teams.members(acme.id)
        assert.deepStrictEqual(members.map((m) => [m.email, m.role]).toSorted(), [
          ["ada@example.com", "owner"],
          ["bob@example.com", "member"]
        ])
        assert.isTrue(members.every((m) => !Number.isNaN(Date.parse(m.joinedAt))))
        assert.isTrue(yield* teams.setRole(acme.id, bob.id, "admin"))
        assert.isFalse(yield* teams.setRole(acme.id, crypto.randomUUID() as UserId, "admin"))
        assert.strictEqual(Option.getOrThrow(yield* teams.membership(acme.id, bob.id)).role, "admin")
        assert.strictEqual(Option.getOrThrow(yield* teams.membership(globex.id, bob.id)).role, "admin")

        assert.isTrue(yield* teams.removeMember(acme.id, bob.id))
        assert.isFalse(yield* teams.removeMember(acme.id, bob.id))
        assert.strictEqual(Option.getOrThrow(yield* users.findById(bob.id)).currentTeamId, null)
        assert.strictEqual(Option.getOrThrow(yield* users.findById(ada.id)).currentTeamId, acme.id)
        assert.isTrue(Option.isSome(yield* teams.membership(globex.id, bob.id)))
        yield* users.setCurrentTeam(bob.id, globex.id)
        yield* teams.addMember(acme.id, bob.id, "member")
        assert.isTrue(yield* teams.removeMember(acme.id, bob.id))
        assert.strictEqual(Option.getOrThrow(yield* users.findById(bob.id)).currentTeamId, globex.id)

        yield* teams.lockTeam(acme.id)
        yield* teams.update({ ...acme, name: "Acme Inc", baseCurrency: "EUR" })
        assert.deepStrictEqual(
          yield* teams.findById(acme.id),
          Option.some({ ...acme, name: "Acme Inc", baseCurrency: "EUR" })
        )
      })
    )

    it.effect("a profile change keeps everything else; an unknown user is none", () =>
      Effect.gen(function* () {
        const users = yield* UsersRepo
        const ada = yield* users.ensure(user("ada@example.com"))
        const named = Option.getOrThrow(yield* users.updateProfile(ada.id, { fullName: "Ada" }))
        assert.deepStrictEqual(named, { ...ada, fullName: "Ada" })
        assert.deepStrictEqual(yield* users.updateProfile(ada.id, {}), Option.some(named))
        assert.strictEqual(Option.getOrThrow(yield* users.updateProfile(ada.id, { fullName: null })).fullName, null)
        assert.isTrue(Option.isNone(yield* users.updateProfile(crypto.randomUUID() as UserId, { fullName: "X" })))
      })
    )

    it.effect("an invitation is found by its hash, listed newest first, and accepted once, before it expires", () =>
      Effect.gen(function* () {
        const users = yield* UsersRepo
        const teams = yield* TeamsRepo
        const invites = yield* TeamInvitesRepo
        const acme = team()
        yield* teams.insert(acme)
        const owner = yield* users.ensure(user("owner@example.com"))
        const now = Date.now()
        const invite = (email: string, createdAt: number, expiresAt: number): TeamInvite => ({
          id: crypto.randomUUID(),
          teamId: acme.id,
          email,
          role: "member",
          tokenHash: crypto.randomUUID().replaceAll("-", ""),
          invitedBy: owner.id,
          expiresAt: new Date(expiresAt).toISOString(),
          acceptedAt: null,
          acceptedBy: null,
          createdAt: new Date(createdAt).toISOString()
        })
        const open = invite("bob@example.com", now - HOUR, now + HOUR)
        const stale = invite("late@example.com", now - 2 * HOUR, now - 1)
        yield* invites.insert(open)
        yield* invites.insert(stale)
        assert.deepStrictEqual(yield* invites.findByTokenHash(open.tokenHash), Option.some(open))
        assert.isTrue(Option.isNone(yield* invites.findByTokenHash("unknown")))
        assert.deepStrictEqual(
          (yield* invites.listForTeam(acme.id)).map((i) => i.email),
          ["bob@example.com", "late@example.com"]
        )

        const takers = yield* Effect.forEach(Array.from({ length: 8 }), () => users.ensure(user("bob@example.com")))
        const at = new Date(now).toISOString()
        const won = yield* Effect.forEach(takers, (taker) => invites.markAccepted(open.id, taker.id, at), {
          concurrency: "unbounded"
        })
        assert.strictEqual(won.filter(Boolean).length, 1)
        const accepted = Option.getOrThrow(yield* invites.findByTokenHash(open.tokenHash))
        assert.strictEqual(accepted.acceptedBy, takers[won.indexOf(true)]!.id)
        assert.strictEqual(Date.parse(accepted.acceptedAt!), now)
        assert.isFalse(yield* invites.markAccepted(stale.id, owner.id, at))
        assert.isNull(Option.getOrThrow(yield* invites.findByTokenHash(stale.tokenHash)).acceptedAt)
      })
    )
  })
