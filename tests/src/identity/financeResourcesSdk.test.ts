import { afterAll, assert, describe, it } from "@effect/vitest"
import { appInMemory } from "@svc/api"
import { Mailer, type MailMessage } from "@svc/domain"
import { createClient } from "@svc/sdk"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { testConfig } from "../support/InProcessApp.ts"
import { failureOf, loopbackServer } from "../support/LoopbackServer.ts"
import { person, tokenMailedTo } from "./TeamAdminSetup.ts"

const mail: Array<MailMessage> = []
const { handler, dispose } = HttpRouter.toWebHandler(
  appInMemory(testConfig).pipe(
    Layer.provide(HttpServer.layerServices),
    Layer.provide(
      Layer.succeed(Mailer, { send: (message) => Effect.sync(() => void mail.push(message)), localDelivery: null })
    )
  ),
  { disableLogger: true }
)
afterAll(() => dispose())

const server = loopbackServer(handler)

describe("the SDK's teams, members, customers and notifications", () => {
  it("updates the team, invites and accepts, changes roles, keeps customers and reads notifications", async () => {
    const owner = await person("owner@sdk.example")
    const bob = await person("bob@sdk.example")
    const asOwner = createClient({ baseUrl: server.baseUrl(), token: owner.token })
    const asBob = createClient({ baseUrl: server.baseUrl(), token: bob.token })

    const team = await asOwner.teams.create({ payload: { name: "Acme" } })
    assert.deepInclude(await asOwner.teamAdmin.updateTeam({ params: { id: team.id }, payload: { name: "Acme Inc" } }), {
      name: "Acme Inc",
      role: "owner"
    })
    assert.strictEqual((await asOwner.teamAdmin.getTeam({ params: { id: team.id } })).name, "Acme Inc")

    const invite = await asOwner.teamAdmin.invite({
      params: { id: team.id },
      payload: { email: bob.email, role: "member" }
    })
    assert.strictEqual(invite.status, "pending")
    assert.strictEqual(
      (await asOwner.teamAdmin.listInvites({ params: { id: team.id }, query: {} })).data[0]?.id,
      invite.id
    )
    const joined = await asBob.invites.accept({ payload: { token: tokenMailedTo(mail, bob.email) } })
    assert.strictEqual(joined.role, "member")
    assert.strictEqual((await asBob.teamAdmin.updateMe({ payload: { fullName: "Bob" } })).fullName, "Bob")
    assert.strictEqual(
      (await asOwner.teamAdmin.updateMember({ params: { id: team.id, userId: bob.id }, payload: { role: "admin" } }))
        .role,
      "admin"
    )
    const members = await asBob.teamAdmin.listMembers({ params: { id: team.id }, query: {} })
    assert.deepStrictEqual(members.data.map((m) => [m.email, m.role]).toSorted(), [
      ["bob@sdk.example", "admin"],
      ["owner@sdk.example", "owner"]
    ])
    const lastOwner = await failureOf(asOwner.teamAdmin.removeMember({ params: { id: team.id, userId: owner.id } }))
    assert.strictEqual(lastOwner.status, 409)
    assert.strictEqual((await asBob.teamAdmin.removeMember({ params: { id: team.id, userId: bob.id } })).id, bob.id)

    const customer = await asOwner.customers.create({ payload: { name: "Globex", website: "https://globex.example" } })
    assert.strictEqual((await asOwner.customers.get({ params: { id: customer.id } })).name, "Globex")
    assert.strictEqual(
      (await asOwner.customers.update({ params: { id: customer.id }, payload: { note: "net 30" } })).note,
      "net 30"
    )
    assert.deepStrictEqual(
      (await asOwner.customers.list({ query: { q: "glob" } })).data.map((c) => c.id),
      [customer.id]
    )
    assert.deepStrictEqual(await asOwner.customers.delete({ params: { id: customer.id } }), {
      id: customer.id,
      object: "customer",
      deleted: true
    })
    assert.strictEqual((await failureOf(asOwner.customers.get({ params: { id: customer.id } }))).status, 404)

    const none = await asOwner.notifications.list({ query: { status: "unread" } })
    assert.deepStrictEqual(none.data, [])
    assert.deepStrictEqual(await asOwner.notifications.setAllStatus({ payload: { status: "read" } }), { data: [] })
    const missing = await failureOf(
      asOwner.notifications.setStatus({ params: { id: crypto.randomUUID() }, payload: { status: "read" } })
    )
    assert.strictEqual(missing.status, 404)
  })
})
