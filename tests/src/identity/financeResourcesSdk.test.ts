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
    Layer.provide(Layer.succeed(Mailer, { send: (message) => Effect.sync(() => void mail.push(message)) }))
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

    const team = await asOwner.createTeam({ name: "Acme" })
    assert.deepInclude(await asOwner.updateTeam(team.id, { name: "Acme Inc" }), { name: "Acme Inc", role: "owner" })
    assert.strictEqual((await asOwner.getTeam(team.id)).name, "Acme Inc")

    const invite = await asOwner.inviteMember(team.id, { email: bob.email, role: "member" })
    assert.strictEqual(invite.status, "pending")
    assert.strictEqual((await asOwner.listTeamInvites(team.id)).data[0]?.id, invite.id)
    const joined = await asBob.acceptInvite(tokenMailedTo(mail, bob.email))
    assert.strictEqual(joined.role, "member")
    assert.strictEqual((await asBob.updateMe({ fullName: "Bob" })).fullName, "Bob")
    assert.strictEqual((await asOwner.setMemberRole(team.id, bob.id, "admin")).role, "admin")
    const members = await asBob.listTeamMembers(team.id)
    assert.deepStrictEqual(members.data.map((m) => [m.email, m.role]).toSorted(), [
      ["bob@sdk.example", "admin"],
      ["owner@sdk.example", "owner"]
    ])
    const lastOwner = await failureOf(asOwner.removeMember(team.id, owner.id))
    assert.strictEqual(lastOwner.status, 409)
    assert.strictEqual((await asBob.removeMember(team.id, bob.id)).id, bob.id)

    const customer = await asOwner.createCustomer({ name: "Globex", website: "https://globex.example" })
    assert.strictEqual((await asOwner.getCustomer(customer.id)).name, "Globex")
    assert.strictEqual((await asOwner.updateCustomer(customer.id, { note: "net 30" })).note, "net 30")
    assert.deepStrictEqual(
      (await asOwner.listCustomers({ q: "glob" })).data.map((c) => c.id),
      [customer.id]
    )
    assert.deepStrictEqual(await asOwner.deleteCustomer(customer.id), {
      id: customer.id,
      object: "customer",
      deleted: true
    })
    assert.strictEqual((await failureOf(asOwner.getCustomer(customer.id))).status, 404)

    const none = await asOwner.listNotifications({ status: "unread" })
    assert.deepStrictEqual(none.data, [])
    assert.deepStrictEqual(await asOwner.setAllNotificationsStatus("read"), { data: [] })
    const missing = await failureOf(asOwner.setNotificationStatus(crypto.randomUUID(), "read"))
    assert.strictEqual(missing.status, 404)
  })
})
