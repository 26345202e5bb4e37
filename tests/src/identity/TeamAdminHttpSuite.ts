import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import type { Layer } from "effect"
import { assertInvalid } from "../support/HttpScenarios.ts"
import { createTeam, join, person, tokenMailedTo, withTeamApp } from "./TeamAdminSetup.ts"

const rolesOf = (body: { data: ReadonlyArray<{ email: string; role: string }> }) =>
  body.data.map((m) => [m.email, m.role]).toSorted()

/** Teams, members, invitations and the user's profile over HTTP, on whichever ports the caller provides. */
export const teamAdminHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`teams and members over HTTP (${name})`, (it) => {
    it.effect("a team reads and updates itself only; members and the profile", () =>
      withTeamApp(async (app, mail) => {
        const owner = await person("owner@acme.example")
        const teamId = await createTeam(app, owner)
        const other = await person()
        const otherTeam = await createTeam(app, other, "Globex")

        const team = await app.call("GET", `/teams/${teamId}`, { token: owner.token })
        assert.strictEqual(team.status, 200, JSON.stringify(team.body))
        assert.deepInclude(team.body, { id: teamId, object: "team", name: "Acme", baseCurrency: "USD", role: "owner" })
        assert.strictEqual((await app.call("GET", `/teams/${otherTeam}`, { token: owner.token })).status, 404)
        assert.strictEqual(
          (await app.call("PATCH", `/teams/${otherTeam}`, { token: owner.token, body: { name: "Mine" } })).status,
          404
        )
        assertInvalid(await app.call("GET", "/teams/not-a-team", { token: owner.token }), "params.id")

        const patched = await app.call("PATCH", `/teams/${teamId}`, {
          token: owner.token,
          body: { name: "Acme Inc", baseCurrency: "EUR" }
        })
        assert.strictEqual(patched.status, 200, JSON.stringify(patched.body))
        assert.deepInclude(patched.body, { name: "Acme Inc", baseCurrency: "EUR" })
        assert.deepInclude((await app.call("GET", `/teams/${teamId}`, { token: owner.token })).body, {
          name: "Acme Inc",
          baseCurrency: "EUR"
        })
        assertInvalid(
          await app.call("PATCH", `/teams/${teamId}`, { token: owner.token, body: { baseCurrency: "euro" } }),
          "baseCurrency"
        )
        assertInvalid(
          await app.call("PATCH", `/teams/${teamId}`, { token: owner.token, body: { baseCurrency: "XYZ" } }),
          "baseCurrency"
        )
        assertInvalid(await app.call("PATCH", `/teams/${teamId}`, { token: owner.token, body: { name: "" } }), "name")

        const member = await person("member@acme.example")
        await join(app, mail, teamId, owner, member, "member")
        const refused = await app.call("PATCH", `/teams/${teamId}`, { token: member.token, body: { name: "Mine" } })
        assert.strictEqual(refused.status, 403)
        const members = await app.call("GET", `/teams/${teamId}/members`, { token: member.token })
        assert.strictEqual(members.status, 200)
        assert.deepStrictEqual(rolesOf(members.body), [
          ["member@acme.example", "member"],
          ["owner@acme.example", "owner"]
        ])
        assert.deepStrictEqual(Object.keys(members.body.data[0]).toSorted(), [
          "email",
          "fullName",
          "id",
          "joinedAt",
          "object",
          "role"
        ])

        const me = await app.call("PATCH", "/users/me", { token: member.token, body: { fullName: "Mem Ber" } })
        assert.strictEqual(me.status, 200, JSON.stringify(me.body))
        assert.deepInclude(me.body, { id: member.id, fullName: "Mem Ber", teamId })
        assert.strictEqual((await app.call("GET", "/users/me", { token: member.token })).body.fullName, "Mem Ber")
        assertInvalid(await app.call("PATCH", "/users/me", { token: member.token, body: { fullName: "" } }), "fullName")
        assertInvalid(await app.call("PATCH", "/users/me", { token: member.token, body: { email: "x@y.z" } }), "email")

        const key = await app.call("POST", "/api-keys", {
          token: owner.token,
          body: { name: "reader", scopes: ["teams.read"] }
        })
        const apiKey = key.body.secret
        assert.strictEqual((await app.call("GET", `/teams/${teamId}`, { token: apiKey })).status, 200)
        assert.strictEqual((await app.call("GET", `/teams/${otherTeam}`, { token: apiKey })).status, 404)
        const noScope = await app.call("PATCH", `/teams/${teamId}`, { token: apiKey, body: { name: "X" } })
        assert.strictEqual(noScope.status, 403)
        assert.strictEqual(noScope.body.error, "insufficient_scope")
        assert.strictEqual((await app.call("PATCH", "/users/me", { token: apiKey, body: {} })).status, 403)
      })
    )

    it.effect("invitations: mailed once with a token never answered, accepted once, by the invited address only", () =>
      withTeamApp(async (app, mail) => {
        const owner = await person()
        const teamId = await createTeam(app, owner)
        const bob = await person("Bob@Example.com")
        const invite = await app.call("POST", `/teams/${teamId}/invites`, {
          token: owner.token,
          body: { email: "bob@example.com", role: "admin" }
        })
        assert.strictEqual(invite.status, 201, JSON.stringify(invite.body))
        assert.deepInclude(invite.body, {
          object: "team_invite",
          teamId,
          email: "bob@example.com",
          role: "admin",
          status: "pending",
          acceptedAt: null
        })
        const token = tokenMailedTo(mail(), "bob@example.com")
        assert.notInclude(JSON.stringify(invite.body), token)
        const listed = await app.call("GET", `/teams/${teamId}/invites`, { token: owner.token })
        assert.deepStrictEqual(
          listed.body.data.map((i: { id: string; status: string }) => [i.id, i.status]),
          [[invite.body.id, "pending"]]
        )
        assert.notInclude(JSON.stringify(listed.body), token)

        const stranger = await person("eve@example.com")
        const wrong = await app.call("POST", "/invites/accept", { token: stranger.token, body: { token } })
        assert.strictEqual(wrong.status, 403)
        assert.strictEqual(wrong.body.error, "invite_email_mismatch")
        assert.strictEqual(
          (await app.call("POST", "/invites/accept", { token: bob.token, body: { token: `${token}x` } })).status,
          404
        )

        const accepted = await app.call("POST", "/invites/accept", { token: bob.token, body: { token } })
        assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
        assert.deepInclude(accepted.body, { id: bob.id, object: "team_member", role: "admin" })
        assert.strictEqual((await app.call("GET", "/users/me", { token: bob.token })).body.teamId, teamId)
        const again = await app.call("POST", "/invites/accept", { token: bob.token, body: { token } })
        assert.strictEqual(again.status, 409)
        assert.strictEqual(again.body.error, "invite_used")
        assert.strictEqual(
          (await app.call("GET", `/teams/${teamId}/invites`, { token: owner.token })).body.data[0].status,
          "accepted"
        )

        const asOwner = await app.call("POST", `/teams/${teamId}/invites`, {
          token: bob.token,
          body: { email: "carol@example.com", role: "owner" }
        })
        assert.strictEqual(asOwner.status, 403, "an admin does not make owners")
        const carol = await person("carol@example.com")
        await join(app, mail, teamId, bob, carol, "member")
        const byMember = await app.call("POST", `/teams/${teamId}/invites`, {
          token: carol.token,
          body: { email: "dan@example.com", role: "member" }
        })
        assert.strictEqual(byMember.status, 403)
        await app.call("POST", `/teams/${teamId}/invites`, {
          token: owner.token,
          body: { email: "carol@example.com", role: "member" }
        })
        const twice = await app.call("POST", "/invites/accept", {
          token: carol.token,
          body: { token: tokenMailedTo(mail(), "carol@example.com") }
        })
        assert.strictEqual(twice.status, 409)
        assert.strictEqual(twice.body.error, "already_member")
        assertInvalid(
          await app.call("POST", `/teams/${teamId}/invites`, {
            token: owner.token,
            body: { email: "nope", role: "member" }
          }),
          "email"
        )
        assertInvalid(
          await app.call("POST", `/teams/${teamId}/invites`, {
            token: owner.token,
            body: { email: "a@b.co", role: "boss" }
          }),
          "role"
        )
        assert.strictEqual(mail().filter((m) => m.to === "nope").length, 0)
      })
    )

    it.effect("an expired invitation is refused", () =>
      withTeamApp(async (app, mail) => {
        const owner = await person()
        const teamId = await createTeam(app, owner)
        const late = await person()
        await app.call("POST", `/teams/${teamId}/invites`, {
          token: owner.token,
          body: { email: late.email, role: "member" }
        })
        const answer = await app.call("POST", "/invites/accept", {
          token: late.token,
          body: { token: tokenMailedTo(mail(), late.email) }
        })
        assert.strictEqual(answer.status, 409)
        assert.strictEqual(answer.body.error, "invite_expired")
        assert.strictEqual((await app.call("GET", `/teams/${teamId}`, { token: late.token })).status, 404)
      }, 0)
    )

    it.effect("concurrent acceptances of one invitation join once", () =>
      withTeamApp(async (app, mail) => {
        const owner = await person()
        const teamId = await createTeam(app, owner)
        for (let round = 0; round < 3; round++) {
          const bob = await person()
          await app.call("POST", `/teams/${teamId}/invites`, {
            token: owner.token,
            body: { email: bob.email, role: "member" }
          })
          const token = tokenMailedTo(mail(), bob.email)
          const answers = await Promise.all(
            Array.from({ length: 8 }, () => app.call("POST", "/invites/accept", { token: bob.token, body: { token } }))
          )
          assert.deepStrictEqual(
            answers.map((a) => a.status).toSorted(),
            [200, 409, 409, 409, 409, 409, 409, 409],
            JSON.stringify(answers.map((a) => a.body))
          )
          const members = (await app.call("GET", `/teams/${teamId}/members?limit=100`, { token: owner.token })).body
          assert.strictEqual(members.data.filter((m: { id: string }) => m.id === bob.id).length, 1)
        }
      })
    )

    it.effect("roles and removal: only owners touch owners, anyone may leave, a team keeps an owner", () =>
      withTeamApp(async (app, mail) => {
        const owner = await person()
        const teamId = await createTeam(app, owner)
        const admin = await person()
        const member = await person()
        await join(app, mail, teamId, owner, admin, "admin")
        await join(app, mail, teamId, owner, member, "member")
        const path = (p: { id: string }) => `/teams/${teamId}/members/${p.id}`

        const lonely = await app.call("PATCH", path(owner), { token: owner.token, body: { role: "admin" } })
        assert.strictEqual(lonely.status, 409)
        assert.strictEqual(lonely.body.error, "last_owner")
        assert.strictEqual((await app.call("DELETE", path(owner), { token: owner.token })).status, 409)
        assert.strictEqual(
          (await app.call("PATCH", path(owner), { token: admin.token, body: { role: "member" } })).status,
          403
        )
        assert.strictEqual((await app.call("DELETE", path(owner), { token: admin.token })).status, 403)
        assert.strictEqual(
          (await app.call("PATCH", path(member), { token: admin.token, body: { role: "owner" } })).status,
          403
        )
        assert.strictEqual((await app.call("DELETE", path(admin), { token: member.token })).status, 403)
        const promoted = await app.call("PATCH", path(member), { token: admin.token, body: { role: "admin" } })
        assert.strictEqual(promoted.status, 200)
        assert.strictEqual(promoted.body.role, "admin")
        assert.strictEqual(
          (
            await app.call("PATCH", `/teams/${teamId}/members/${crypto.randomUUID()}`, {
              token: owner.token,
              body: { role: "member" }
            })
          ).status,
          404
        )

        const left = await app.call("DELETE", path(member), { token: member.token })
        assert.strictEqual(left.status, 200, JSON.stringify(left.body))
        assert.strictEqual((await app.call("GET", `/teams/${teamId}`, { token: member.token })).status, 404)
        assert.strictEqual((await app.call("GET", "/users/me", { token: member.token })).body.teamId, null)

        const handover = await app.call("PATCH", path(admin), { token: owner.token, body: { role: "owner" } })
        assert.strictEqual(handover.status, 200)
        const stepDown = await app.call("PATCH", path(owner), { token: owner.token, body: { role: "member" } })
        assert.strictEqual(stepDown.status, 200)
        const removed = await app.call("DELETE", path(owner), { token: admin.token })
        assert.strictEqual(removed.status, 200)
        const members = (await app.call("GET", `/teams/${teamId}/members`, { token: admin.token })).body
        assert.deepStrictEqual(
          members.data.map((m: { id: string; role: string }) => [m.id, m.role]),
          [[admin.id, "owner"]]
        )
      })
    )

    it.effect("two owners removing or demoting each other at once leave exactly one owner", () =>
      withTeamApp(async (app, mail) => {
        for (const action of ["remove", "demote"] as const) {
          for (let round = 0; round < 3; round++) {
            const a = await person()
            const teamId = await createTeam(app, a)
            const b = await person()
            await join(app, mail, teamId, a, b, "owner")
            const act = (actor: { token: string }, target: { id: string }) =>
              action === "remove"
                ? app.call("DELETE", `/teams/${teamId}/members/${target.id}`, { token: actor.token })
                : app.call("PATCH", `/teams/${teamId}/members/${target.id}`, {
                    token: actor.token,
                    body: { role: "member" }
                  })
            const answers = await Promise.all([act(a, b), act(b, a)])
            const statuses = answers.map((x) => x.status)
            const detail = JSON.stringify(answers.map((x) => x.body))
            // The loser finds the last owner (409), or has lost its own seat (404 removed, 403 demoted) first.
            assert.strictEqual(statuses.filter((s) => s === 200).length, 1, detail)
            assert.include(
              [403, 404, 409],
              statuses.find((s) => s !== 200),
              detail
            )
            const survivor = answers[0]!.status === 200 ? a : b
            const members = (await app.call("GET", `/teams/${teamId}/members`, { token: survivor.token })).body
            assert.strictEqual(members.data.filter((m: { role: string }) => m.role === "owner").length, 1)
          }
        }
      })
    )
  })
