import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import { Notifications, notifyAllPending } from "@svc/domain"
import { type Context, Effect, type Layer } from "effect"
import { assertInvalid, type Client, setUpKeyedTeam, withAppOnPorts } from "../support/HttpScenarios.ts"

const NOTIFICATION_KEYS = [
  "createdAt",
  "id",
  "lastUsedAt",
  "metadata",
  "priority",
  "source",
  "status",
  "teamId",
  "type",
  "userId"
]

const v1 = (app: Client, key: string, path: string, body: unknown) =>
  app.call("POST", path, { token: key, body, headers: { "idempotency-key": crypto.randomUUID() } })

const spendBody = (amount: number) => ({
  amount,
  currency: "USD",
  merchant: { name: "OpenAI", category: "software" },
  purpose: "API tokens for the nightly run"
})

const intentBody = (amount: number) => ({
  amount,
  currency: "USD",
  merchant: { name: "Acme Books", url: "https://acme-books.example", mcc: "5942", country: "US" },
  purpose: "a book on double-entry bookkeeping"
})

/** The notification types of the caller, newest first, with the resource each names. */
const typesOf = async (app: Client, token: string) => {
  const list = await app.call("GET", "/notifications?limit=100", { token })
  assert.strictEqual(list.status, 200, JSON.stringify(list.body))
  return (list.body.data as Array<{ type: string; metadata: { resourceId: string | null } }>).map((n) => [
    n.type,
    n.metadata.resourceId
  ])
}

/** Notifications over HTTP and their sources, end to end, on whichever ports the caller provides. */
export const notificationsHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`notifications over HTTP (${name})`, (it) => {
    const notify = (context: Context.Context<Ports>) =>
      Effect.runPromise(
        notifyAllPending.pipe(Effect.provide(Notifications.layer), Effect.provide(context), Effect.asVoid)
      )

    it.effect("approvals waiting (spend request, checkout intent, transfer) and a transfer received notify once", () =>
      withAppOnPorts(async (app, context) => {
        const policy = { approvalThreshold: 5_000 }
        const acme = await setUpKeyedTeam(app, { policy, funds: 50_000 })
        const globex = await setUpKeyedTeam(app, { policy })

        const spend = await v1(app, acme.key, "/v1/spend-requests", spendBody(6_000))
        assert.strictEqual(spend.body.status, "pending_approval", JSON.stringify(spend.body))
        const small = await v1(app, acme.key, "/v1/spend-requests", spendBody(100))
        assert.strictEqual(small.body.status, "approved")
        const intent = await v1(app, acme.key, "/v1/checkout/intents", intentBody(7_000))
        assert.strictEqual(intent.body.status, "pending_approval", JSON.stringify(intent.body))
        const address = (await app.call("GET", "/v1/transfers/receive-address", { token: globex.key })).body.address
        const held = await v1(app, acme.key, "/v1/transfers", { to: { address }, amount: 8_000, currency: "USD" })
        assert.strictEqual(held.body.status, "pending_approval", JSON.stringify(held.body))
        const sent = await v1(app, acme.key, "/v1/transfers", { to: { address }, amount: 1_000, currency: "USD" })
        assert.strictEqual(sent.body.status, "pending_acceptance", JSON.stringify(sent.body))

        await notify(context)
        await notify(context)
        assert.deepStrictEqual(await typesOf(app, acme.owner), [
          ["transfer_approval_required", held.body.id],
          ["checkout_intent_approval_required", intent.body.id],
          ["spend_request_approval_required", spend.body.id]
        ])
        assert.deepStrictEqual(await typesOf(app, globex.owner), [["transfer_received", sent.body.id]])

        const list = await app.call("GET", "/notifications", { token: globex.owner })
        assert.deepStrictEqual(Object.keys(list.body).toSorted(), ["data", "meta"])
        assert.deepStrictEqual(list.body.meta, { cursor: null, hasNextPage: false, hasPreviousPage: false })
        const [received] = list.body.data
        assert.deepStrictEqual(Object.keys(received).toSorted(), NOTIFICATION_KEYS)
        assert.deepInclude(received, {
          teamId: globex.id,
          userId: null,
          priority: 3,
          source: "system",
          status: "unread",
          lastUsedAt: null
        })
        assert.strictEqual(received.metadata.resource.direction, "incoming")
      })
    )

    it.effect("an outbound webhook endpoint disabled notifies the team once", () =>
      withAppOnPorts(async (app, context) => {
        const acme = await setUpKeyedTeam(app)
        const endpoint = await app.call("POST", "/treasury/webhook-endpoints", {
          token: acme.owner,
          body: { url: "https://hooks.example.com/svc", eventTypes: ["*"] }
        })
        assert.strictEqual(endpoint.status, 201, JSON.stringify(endpoint.body))
        const path = `/treasury/webhook-endpoints/${endpoint.body.id}`
        assert.strictEqual((await app.call("DELETE", path, { token: acme.owner })).status, 200)
        assert.strictEqual((await app.call("DELETE", path, { token: acme.owner })).status, 200)
        await notify(context)
        const [disabled, ...rest] = (await app.call("GET", "/notifications", { token: acme.owner })).body.data
        assert.deepStrictEqual(rest, [])
        const enabled = await app.call("PATCH", path, { token: acme.owner, body: { enabled: true } })
        assert.strictEqual(enabled.status, 200)
        const off = await app.call("PATCH", path, { token: acme.owner, body: { enabled: false } })
        assert.strictEqual(off.status, 200)
        await app.call("PATCH", path, { token: acme.owner, body: { eventTypes: ["spend_request.approved"] } })
        await notify(context)
        const again = (await app.call("GET", "/notifications", { token: acme.owner })).body.data
        assert.deepStrictEqual(
          again.map((n: { type: string }) => n.type),
          ["webhook_endpoint_disabled", "webhook_endpoint_disabled"],
          "each time it is turned off, once"
        )
        assert.strictEqual(disabled.type, "webhook_endpoint_disabled")
        assert.strictEqual(disabled.metadata.resourceId, endpoint.body.id)
        assert.strictEqual(disabled.metadata.resource.disabledReason, "disabled_by_user")
        assert.notProperty(disabled.metadata.resource, "secret")
      })
    )

    it.effect("status changes: one, all at once (all or nothing), filters, scopes, bad input and other teams", () =>
      withAppOnPorts(async (app, context) => {
        const acme = await setUpKeyedTeam(app, { policy: { approvalThreshold: 10 }, funds: 10_000 })
        const globex = await setUpKeyedTeam(app, { policy: { approvalThreshold: 10 }, funds: 10_000 })
        for (const team of [acme, acme, acme, globex]) {
          assert.strictEqual((await v1(app, team.key, "/v1/spend-requests", spendBody(500))).status, 201)
        }
        await notify(context)
        const mine = (await app.call("GET", "/notifications", { token: acme.owner })).body.data
        assert.strictEqual(mine.length, 3)
        const theirs = (await app.call("GET", "/notifications", { token: globex.owner })).body.data[0]

        const one = await app.call("PATCH", `/notifications/${mine[0].id}/status`, {
          token: acme.owner,
          body: { status: "read" }
        })
        assert.strictEqual(one.status, 200)
        assert.deepStrictEqual(one.body, { data: { ...mine[0], status: "read" } })
        const unread = await app.call("GET", "/notifications?status=unread", { token: acme.owner })
        assert.deepStrictEqual(
          unread.body.data.map((n: { id: string }) => n.id),
          [mine[1].id, mine[2].id]
        )
        const paged = await app.call("GET", "/notifications?limit=2", { token: acme.owner })
        assert.isTrue(paged.body.meta.hasNextPage)
        const next = await app.call("GET", `/notifications?limit=2&cursor=${paged.body.meta.cursor}`, {
          token: acme.owner
        })
        assert.deepStrictEqual(
          next.body.data.map((n: { id: string }) => n.id),
          [mine[2].id]
        )
        assert.isTrue(next.body.meta.hasPreviousPage)

        const bad = await app.call("POST", "/notifications/update-all-status", {
          token: acme.owner,
          body: { status: "deleted" }
        })
        assertInvalid(bad, "status")
        assert.strictEqual(
          (await app.call("GET", "/notifications?status=unread", { token: acme.owner })).body.data.length,
          2,
          "a refused bulk change changes nothing"
        )
        const all = await app.call("POST", "/notifications/update-all-status", {
          token: acme.owner,
          body: { status: "archived" }
        })
        assert.strictEqual(all.status, 200)
        assert.deepStrictEqual(Object.keys(all.body), ["data"])
        assert.strictEqual(all.body.data.length, 3)
        assert.isTrue(all.body.data.every((n: { status: string }) => n.status === "archived"))
        assert.strictEqual(
          (await app.call("GET", "/notifications", { token: globex.owner })).body.data[0].status,
          "unread",
          "another team's notifications stay"
        )

        const foreign = await app.call("PATCH", `/notifications/${theirs.id}/status`, {
          token: acme.owner,
          body: { status: "read" }
        })
        assert.strictEqual(foreign.status, 404)
        assertInvalid(
          await app.call("PATCH", "/notifications/not-a-uuid/status", { token: acme.owner, body: { status: "read" } }),
          "params.id"
        )
        assertInvalid(await app.call("GET", "/notifications?status=unread,gone", { token: acme.owner }), "query.status")
        assertInvalid(
          await app.call("PATCH", `/notifications/${mine[0].id}/status`, { token: acme.owner, body: {} }),
          "status"
        )

        const readOnly = await app.call("POST", "/api-keys", {
          token: acme.owner,
          body: { name: "reader", scopes: ["notifications.read"] }
        })
        assert.strictEqual(readOnly.status, 201, JSON.stringify(readOnly.body))
        const key = readOnly.body.secret
        assert.strictEqual((await app.call("GET", "/notifications", { token: key })).status, 200)
        const refused = await app.call("POST", "/notifications/update-all-status", {
          token: key,
          body: { status: "read" }
        })
        assert.strictEqual(refused.status, 403)
        assert.strictEqual(refused.body.error, "insufficient_scope")
        assert.strictEqual((await app.call("GET", "/notifications")).status, 401)
      })
    )
  })
