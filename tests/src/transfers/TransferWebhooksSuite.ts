import { assert, layer } from "@effect/vitest"
import { deliverOnce, OutboundWebhooksLive } from "@svc/adapters-webhooks"
import { webhooksSettings } from "@svc/api"
import { WebhookDispatcher } from "@svc/domain"
import { ConfigProvider, Context, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Webhook } from "standardwebhooks"
import { sessionToken } from "../support/InProcessApp.ts"
import { receiver } from "../support/Receiver.ts"
import { type Answer, baseEnv, type RunningApp, serveApp, type WebhookPorts } from "../support/WebhooksHarness.ts"

const TRANSFER_EVENTS = [
  "transfer.created",
  "transfer.approval_required",
  "transfer.completed",
  "transfer.declined",
  "transfer.canceled",
  "transfer.expired"
]

/** The suite's test clock starts at the real time, which the standardwebhooks verifier checks signatures against. */
const ClockAtRealTime = Layer.effectDiscard(Effect.suspend(() => TestClock.setTime(Date.now())))

/** A JSON call to the served app; every POST carries a fresh Idempotency-Key. */
const http = (app: RunningApp, method: string, path: string, token: string, body?: unknown) =>
  Effect.promise(async (): Promise<Answer> => {
    const response = await fetch(`${app.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(method === "POST" ? { "idempotency-key": crypto.randomUUID() } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? null : JSON.parse(text) }
  })

/** A team with a test key (funded with `funds`), its receive address, and a webhook endpoint for transfer events. */
const teamWithEndpoint = (app: RunningApp, url: string, funds: number) =>
  Effect.gen(function* () {
    const owner = yield* Effect.promise(() => sessionToken())
    assert.strictEqual((yield* http(app, "POST", "/teams", owner, { name: "Team" })).status, 201)
    const key = yield* http(app, "POST", "/treasury/spending-keys", owner, { name: "a", mode: "test", policy: {} })
    assert.strictEqual(key.status, 201)
    const secret = key.body.secret as string
    if (funds > 0) {
      const deposit = yield* http(app, "POST", "/v1/test-helpers/deposits", secret, { amount: funds, currency: "USD" })
      assert.strictEqual(deposit.status, 201)
    }
    const endpoint = yield* http(app, "POST", "/treasury/webhook-endpoints", owner, {
      url,
      eventTypes: TRANSFER_EVENTS
    })
    assert.strictEqual(endpoint.status, 201, JSON.stringify(endpoint.body))
    const address = (yield* http(app, "GET", "/v1/transfers/receive-address", secret)).body.address as string
    return { key: secret, address, endpointSecret: endpoint.body.secret as string }
  })

/** Transfer events reach each team's webhook endpoint, as that team sees the transfer; over the caller's ports. */
export const transferWebhooksSuite = <E>(name: string, ports: Layer.Layer<WebhookPorts, E>) =>
  layer(ports.pipe(Layer.provide(ClockAtRealTime)), { timeout: "120 seconds" })(`transfer webhooks (${name})`, (it) => {
    it.effect("each team's endpoint receives its transfer.* events: created, completed, declined", () =>
      Effect.gen(function* () {
        const env = baseEnv()
        const context = yield* Effect.context<WebhookPorts>()
        const app = yield* serveApp(context, { ...env, WEBHOOK_WORKERS: "off" })
        const outbound = yield* Layer.build(
          OutboundWebhooksLive.pipe(
            Layer.provide(Layer.succeedContext(context)),
            Layer.provide(Layer.fresh(webhooksSettings)),
            Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env)))
          )
        )
        const dispatcher = Context.get(outbound, WebhookDispatcher)
        const senderHook = yield* receiver(() => ({ status: 204 }))
        const recipientHook = yield* receiver(() => ({ status: 204 }))
        const sender = yield* teamWithEndpoint(app, senderHook.url, 5_000)
        const recipient = yield* teamWithEndpoint(app, recipientHook.url, 0)

        const to = { address: recipient.address }
        const paid = yield* http(app, "POST", "/v1/transfers", sender.key, { to, amount: 1_000, currency: "USD" })
        assert.strictEqual(paid.status, 201)
        assert.strictEqual(
          (yield* http(app, "POST", `/v1/transfers/${paid.body.id}/accept`, recipient.key)).status,
          200
        )
        const refused = yield* http(app, "POST", "/v1/transfers", sender.key, { to, amount: 500, currency: "USD" })
        assert.strictEqual(
          (yield* http(app, "POST", `/v1/transfers/${refused.body.id}/decline`, recipient.key)).status,
          200
        )

        for (let steps = 0; ; steps++) {
          if ((yield* deliverOnce.pipe(Effect.provideService(WebhookDispatcher, dispatcher))) === 0) break
          if (steps === 10) return yield* Effect.die(new Error("deliveries still due after 10 steps"))
          yield* TestClock.adjust("5 seconds")
        }

        const eventsOf = (
          hook: { readonly received: ReadonlyArray<{ headers: Record<string, string>; body: string }> },
          secret: string
        ) =>
          hook.received
            .map(
              (r) =>
                new Webhook(secret).verify(r.body, r.headers) as {
                  type: string
                  data: { id: string; direction: string; status: string }
                }
            )
            .map((e) => [e.type, e.data.id, e.data.direction, e.data.status])
            .toSorted((a, b) => `${a[1]}${a[0]}`.localeCompare(`${b[1]}${b[0]}`))
        const expected = (direction: string) =>
          [
            ["transfer.completed", paid.body.id, direction, "completed"],
            ["transfer.created", paid.body.id, direction, "pending_acceptance"],
            ["transfer.created", refused.body.id, direction, "pending_acceptance"],
            ["transfer.declined", refused.body.id, direction, "declined"]
          ].toSorted((a, b) => `${a[1]}${a[0]}`.localeCompare(`${b[1]}${b[0]}`))
        assert.deepStrictEqual(eventsOf(senderHook, sender.endpointSecret), expected("outgoing"))
        assert.deepStrictEqual(eventsOf(recipientHook, recipient.endpointSecret), expected("incoming"))
      }).pipe(Effect.scoped)
    )
  })
