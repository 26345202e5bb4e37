import { assert, layer } from "@effect/vitest"
import { deliverOnce, OutboundWebhooksLive } from "@svc/adapters-webhooks"
import { webhooksSettings } from "@svc/api"
import { EventOutbox, Ledger, type TeamId, Transactor, WebhookDispatcher } from "@svc/domain"
import { ConfigProvider, Context, Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { Webhook } from "standardwebhooks"
import { sessionToken } from "../support/InProcessApp.ts"
import { receiver, type Script } from "../support/Receiver.ts"
import { baseEnv, call, type RunningApp, serveApp, type WebhookPorts } from "../support/WebhooksHarness.ts"

/** Longer than any retry wait or lease `baseEnv` sets, so a step after it finds every unfinished delivery due. */
const PAST_EVERY_WAIT = "5 seconds"

/**
 * Starts the suite's test clock at the real time, which the standardwebhooks verifier checks signature timestamps
 * against; before the database pool is built, so its timers are not run through the years a later jump would skip.
 */
const ClockAtRealTime = Layer.effectDiscard(Effect.suspend(() => TestClock.setTime(Date.now())))

/** A running app with no worker fibers, and the outbound dispatcher of the same set of services. */
interface Services extends RunningApp {
  readonly dispatcher: WebhookDispatcher["Service"]
}

/** Builds a new set of services over the suite's ports: a restart, when an earlier set has stopped. */
const start = (env: Record<string, string>) =>
  Effect.gen(function* () {
    const ports = yield* Effect.context<WebhookPorts>()
    const app = yield* serveApp(ports, { ...env, WEBHOOK_WORKERS: "off" })
    const outbound = yield* Layer.build(
      OutboundWebhooksLive.pipe(
        Layer.provide(Layer.succeedContext(ports)),
        Layer.provide(Layer.fresh(webhooksSettings)),
        Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env)))
      )
    )
    return { ...app, dispatcher: Context.get(outbound, WebhookDispatcher) } satisfies Services
  })

/** One step of the delivery worker (fan-out, then what is due now) on the app's dispatcher. */
const step = (app: Services) => deliverOnce.pipe(Effect.provideService(WebhookDispatcher, app.dispatcher))

/** Runs the worker's step, moving the clock past every wait after each step that found work, until one finds none. */
const deliverAll = (app: Services) =>
  Effect.gen(function* () {
    for (let steps = 0; steps < 10; steps++) {
      if ((yield* step(app)) === 0) return
      yield* TestClock.adjust(PAST_EVERY_WAIT)
    }
    return yield* Effect.die(new Error("deliveries still due after 10 steps"))
  })

const newTeam = (app: RunningApp) =>
  Effect.gen(function* () {
    const token = yield* Effect.promise(() => sessionToken())
    const created = yield* call(app, "POST", "/teams", token, { name: "Acme" })
    assert.strictEqual(created.status, 201)
    return { teamId: created.body.id as TeamId, token }
  })

const publish = (teamId: TeamId, type = "spend_request.approved") =>
  Effect.gen(function* () {
    const outbox = yield* EventOutbox
    const transactor = yield* Transactor
    const id = crypto.randomUUID()
    yield* transactor.withTransaction(
      outbox.publish({
        id,
        teamId,
        mode: "live",
        type,
        data: {
          id: crypto.randomUUID(),
          object: "spend_request",
          status: "approved",
          amount: 1999,
          metadata: { order_ref: "A-1" }
        },
        createdAt: new Date().toISOString()
      })
    )
    return id
  })

const register = (
  app: RunningApp,
  token: string,
  url: string,
  eventTypes: ReadonlyArray<string> = ["spend_request.approved"]
) =>
  Effect.gen(function* () {
    const created = yield* call(app, "POST", "/treasury/webhook-endpoints", token, { url, eventTypes })
    assert.strictEqual(created.status, 201, JSON.stringify(created.body))
    return created.body as { id: string; secret: string }
  })

const deliveries = (app: RunningApp, token: string, endpointId: string) =>
  call(app, "GET", `/treasury/webhook-endpoints/${endpointId}/deliveries`, token).pipe(
    Effect.map(
      (a) =>
        a.body.data as Array<{
          id: string
          status: string
          attempts: number
          eventId: string
          lastStatusCode: number | null
        }>
    )
  )

/** The outbound webhook scenarios, over whichever ports the caller provides (memory or Postgres). */
export const outboundSuite = <E>(name: string, ports: Layer.Layer<WebhookPorts, E>) =>
  layer(Ledger.layer.pipe(Layer.provideMerge(ports), Layer.provide(ClockAtRealTime)), { timeout: "120 seconds" })(
    `outbound webhooks (${name})`,
    (it) => {
      const withApp = <A, E2, R>(
        script: Script,
        f: (app: Services, hook: Effect.Success<ReturnType<typeof receiver>>) => Effect.Effect<A, E2, R>
      ) =>
        Effect.gen(function* () {
          const hook = yield* receiver(script)
          const app = yield* start(baseEnv())
          return yield* f(app, hook)
        }).pipe(Effect.scoped)

      it.effect("endpoints are registered, listed without secrets, updated, rotated and disabled per team", () =>
        withApp(
          () => ({ status: 200 }),
          (app) =>
            Effect.gen(function* () {
              const { token } = yield* newTeam(app)
              const created = yield* register(app, token, "https://hooks.example.com/svc", [
                "spend_request.approved",
                "spend_request.denied"
              ])
              assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/u)
              const list = yield* call(app, "GET", "/treasury/webhook-endpoints", token)
              assert.strictEqual(list.status, 200)
              assert.strictEqual(list.body.data.length, 1)
              assert.notProperty(list.body.data[0], "secret")
              assert.notInclude(JSON.stringify(list.body), created.secret)
              const patched = yield* call(app, "PATCH", `/treasury/webhook-endpoints/${created.id}`, token, {
                eventTypes: ["*"],
                url: "https://hooks.example.com/v2"
              })
              assert.strictEqual(patched.status, 200)
              assert.deepStrictEqual(patched.body.eventTypes, ["*"])
              assert.strictEqual(patched.body.url, "https://hooks.example.com/v2")
              const rotated = yield* call(app, "POST", `/treasury/webhook-endpoints/${created.id}/rotate-secret`, token)
              assert.strictEqual(rotated.status, 200)
              assert.match(rotated.body.secret, /^whsec_/u)
              assert.notStrictEqual(rotated.body.secret, created.secret)
              const disabled = yield* call(app, "DELETE", `/treasury/webhook-endpoints/${created.id}`, token)
              assert.strictEqual(disabled.status, 200)
              assert.isFalse(disabled.body.enabled)
              assert.strictEqual(disabled.body.disabledReason, "disabled_by_user")

              for (const [payload, path] of [
                [{ url: "not a url", eventTypes: ["*"] }, "url"],
                [{ url: "https://user:pw@hooks.example.com", eventTypes: ["*"] }, "url"],
                [{ url: "https://hooks.example.com", eventTypes: [] }, "eventTypes"],
                [{ url: "https://hooks.example.com", eventTypes: ["Bad Type"] }, "eventTypes"],
                [{ url: "https://hooks.example.com" }, "eventTypes"]
              ] as const) {
                const bad = yield* call(app, "POST", "/treasury/webhook-endpoints", token, payload)
                assert.strictEqual(bad.status, 400, JSON.stringify(payload))
                assert.strictEqual(bad.body.error, "validation_failed")
                assert.isTrue(
                  bad.body.details.some((d: { path: string }) => d.path === path),
                  JSON.stringify(bad.body)
                )
              }
              const other = yield* newTeam(app)
              const hidden = yield* call(app, "GET", `/treasury/webhook-endpoints/${created.id}`, other.token)
              assert.strictEqual(hidden.status, 404)
              assert.strictEqual(
                (yield* call(app, "POST", `/treasury/webhook-endpoints/${created.id}/rotate-secret`, other.token))
                  .status,
                404
              )
              assert.strictEqual((yield* call(app, "GET", "/treasury/webhook-endpoints")).status, 401)
            })
        )
      )

      it.effect(
        "outside development mode, endpoints must not point at loopback, private or other non-public hosts",
        () =>
          Effect.gen(function* () {
            const app = yield* start(baseEnv({ WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: undefined }))
            const { token } = yield* newTeam(app)
            const created = yield* register(app, token, "https://hooks.example.com/svc")
            for (const url of [
              "https://127.1/",
              "https://0x7f.0.0.1/",
              "https://2130706433/",
              "https://[::1]/",
              "https://[::ffff:169.254.169.254]/",
              "https://169.254.169.254/latest/meta-data",
              "https://198.18.0.1/",
              "https://224.0.0.1/",
              "https://localhost/",
              "http://hooks.example.com/"
            ]) {
              for (const attempt of [
                call(app, "POST", "/treasury/webhook-endpoints", token, { url, eventTypes: ["*"] }),
                call(app, "PATCH", `/treasury/webhook-endpoints/${created.id}`, token, { url })
              ]) {
                const bad = yield* attempt
                assert.strictEqual(bad.status, 400, url)
                assert.strictEqual(bad.body.error, "validation_failed")
                assert.deepStrictEqual(
                  bad.body.details.map((d: { path: string }) => d.path),
                  ["url"],
                  JSON.stringify(bad.body)
                )
              }
            }
            const listed = yield* call(app, "GET", "/treasury/webhook-endpoints", token)
            assert.deepStrictEqual(
              listed.body.data.map((e: { url: string }) => e.url),
              ["https://hooks.example.com/svc"]
            )
          }).pipe(Effect.scoped)
      )

      it.effect("a loopback endpoint registered in development mode is refused at delivery once it is off", () =>
        Effect.gen(function* () {
          const hook = yield* receiver(() => ({ status: 204 }))
          const development = yield* start(baseEnv())
          const { teamId, token } = yield* newTeam(development)
          const endpoint = yield* register(development, token, hook.url)
          yield* development.stop
          const production = yield* start(baseEnv({ WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: undefined }))
          yield* publish(teamId)
          yield* deliverAll(production)
          assert.strictEqual(hook.received.length, 0)
          const log = yield* call(production, "GET", `/treasury/webhook-endpoints/${endpoint.id}/deliveries`, token)
          assert.strictEqual(log.body.data.length, 1)
          assert.deepInclude(log.body.data[0], {
            status: "failed",
            attempts: 1,
            lastStatusCode: null,
            lastError: "refused: destination address is not allowed"
          })
        }).pipe(Effect.scoped)
      )

      it.effect(
        "a delivery verifies with the standardwebhooks library; unsubscribed and disabled endpoints get nothing",
        () =>
          withApp(
            () => ({ status: 204 }),
            (app, hook) =>
              Effect.gen(function* () {
                const { teamId, token } = yield* newTeam(app)
                const endpoint = yield* register(app, token, hook.url)
                const eventId = yield* publish(teamId)
                yield* publish(teamId, "spend_request.created")
                yield* deliverAll(app)
                assert.strictEqual(hook.received.length, 1)
                const got = hook.received[0]!
                const verified = new Webhook(endpoint.secret).verify(got.body, got.headers) as {
                  id: string
                  type: string
                  data: { metadata: Record<string, string> }
                }
                assert.strictEqual(verified.id, eventId)
                assert.strictEqual(verified.type, "spend_request.approved")
                assert.deepStrictEqual(verified.data.metadata, { order_ref: "A-1" })
                assert.strictEqual(got.headers["webhook-id"], eventId)
                assert.throws(() => new Webhook(endpoint.secret).verify(`${got.body} `, got.headers))
                const log = yield* deliveries(app, token, endpoint.id)
                assert.strictEqual(log.length, 1)
                assert.strictEqual(log[0]!.status, "succeeded")
                assert.strictEqual(log[0]!.attempts, 1)
                yield* call(app, "DELETE", `/treasury/webhook-endpoints/${endpoint.id}`, token)
                yield* publish(teamId)
                yield* deliverAll(app)
                assert.strictEqual(hook.received.length, 1, "only the subscribed event, only while enabled")
              })
          )
      )

      it.effect("events of several teams fanned out together reach only their own team's endpoints", () =>
        withApp(
          () => ({ status: 204 }),
          (app, hook) =>
            Effect.gen(function* () {
              const a = yield* newTeam(app)
              const b = yield* newTeam(app)
              const endpointA = yield* register(app, a.token, hook.url)
              const endpointB = yield* register(app, b.token, hook.url)
              const [eventA, eventB] = yield* Effect.all([publish(a.teamId), publish(b.teamId)], {
                concurrency: "unbounded"
              })
              yield* deliverAll(app)
              const logA = yield* deliveries(app, a.token, endpointA.id)
              const logB = yield* deliveries(app, b.token, endpointB.id)
              assert.deepStrictEqual(
                logA.map((d) => [d.eventId, d.status]),
                [[eventA, "succeeded"]]
              )
              assert.deepStrictEqual(
                logB.map((d) => [d.eventId, d.status]),
                [[eventB, "succeeded"]]
              )
              assert.strictEqual(hook.received.length, 2)
            })
        )
      )

      it.effect(
        "a receiver that fails twice then succeeds gets the event exactly once more; redeliver sends it again",
        () =>
          withApp(
            (n) => ({ status: n < 2 ? 500 : 200 }),
            (app, hook) =>
              Effect.gen(function* () {
                const { teamId, token } = yield* newTeam(app)
                const endpoint = yield* register(app, token, hook.url)
                const eventId = yield* publish(teamId)
                yield* deliverAll(app)
                const log = yield* deliveries(app, token, endpoint.id)
                assert.strictEqual(log[0]!.status, "succeeded")
                assert.strictEqual(hook.received.length, 3)
                assert.deepStrictEqual(new Set(hook.received.map((r) => r.headers["webhook-id"])), new Set([eventId]))
                assert.strictEqual(log[0]!.attempts, 3)
                assert.strictEqual(log[0]!.lastStatusCode, 200)
                const again = yield* call(
                  app,
                  "POST",
                  `/treasury/webhook-endpoints/${endpoint.id}/deliveries/${log[0]!.id}/redeliver`,
                  token
                )
                assert.strictEqual(again.status, 202)
                yield* deliverAll(app)
                assert.strictEqual(hook.received.length, 4)
                assert.strictEqual(hook.received[3]!.headers["webhook-id"], eventId)
                assert.strictEqual(hook.received[3]!.body, hook.received[0]!.body)
                const missing = yield* call(
                  app,
                  "POST",
                  `/treasury/webhook-endpoints/${endpoint.id}/deliveries/${crypto.randomUUID()}/redeliver`,
                  token
                )
                assert.strictEqual(missing.status, 404)
              })
          )
      )

      it.effect("410 disables the endpoint; a receiver that always fails is given up after the schedule", () =>
        withApp(
          () => ({ status: 503 }),
          (app, failing) =>
            Effect.gen(function* () {
              const { teamId, token } = yield* newTeam(app)
              const gone = yield* receiver(() => ({ status: 410 }))
              const goneEndpoint = yield* register(app, token, gone.url)
              const failingEndpoint = yield* register(app, token, failing.url)
              yield* publish(teamId)
              yield* deliverAll(app)
              assert.strictEqual((yield* deliveries(app, token, failingEndpoint.id))[0]?.status, "failed")
              assert.strictEqual((yield* deliveries(app, token, goneEndpoint.id))[0]?.status, "failed")
              assert.strictEqual(failing.received.length, 4, "the first attempt and the three scheduled retries")
              assert.strictEqual(gone.received.length, 1)
              const endpoint = yield* call(app, "GET", `/treasury/webhook-endpoints/${goneEndpoint.id}`, token)
              assert.isFalse(endpoint.body.enabled)
              assert.strictEqual(endpoint.body.disabledReason, "receiver_gone")
            })
        )
      )

      it.effect("events survive a restart mid-delivery and while no worker runs", () =>
        Effect.gen(function* () {
          const hook = yield* receiver((n) => (n === 0 ? "hang" : { status: 200 }))
          const first = yield* start(baseEnv({ WEBHOOK_DELIVERY_TIMEOUT_MS: "2000", WEBHOOK_DELIVERY_LEASE_MS: "100" }))
          const { teamId, token } = yield* newTeam(first)
          const endpoint = yield* register(first, token, hook.url)
          const eventId = yield* publish(teamId)
          const inFlight = yield* Effect.forkChild(step(first))
          yield* hook.arrival(0)
          yield* Fiber.interrupt(inFlight)
          yield* first.stop
          const idle = yield* start(baseEnv())
          const second = yield* publish(teamId)
          assert.strictEqual(hook.received.length, 1, "nothing is sent while no worker runs")
          yield* idle.stop
          const restarted = yield* start(baseEnv({ WEBHOOK_DELIVERY_LEASE_MS: "100" }))
          yield* TestClock.adjust(PAST_EVERY_WAIT)
          yield* deliverAll(restarted)
          assert.deepStrictEqual(
            new Set(hook.received.slice(1).map((r) => r.headers["webhook-id"])),
            new Set([eventId, second])
          )
          const log = yield* deliveries(restarted, token, endpoint.id)
          assert.strictEqual(log.length, 2)
          assert.isTrue(
            log.every((d) => d.status === "succeeded"),
            JSON.stringify(log)
          )
        }).pipe(Effect.scoped)
      )

      it.effect("with WEBHOOK_WORKERS on, the worker fiber delivers without anyone calling its step", () =>
        Effect.gen(function* () {
          const hook = yield* receiver(() => ({ status: 204 }))
          const setup = yield* start(baseEnv())
          const { teamId, token } = yield* newTeam(setup)
          yield* register(setup, token, hook.url)
          const eventId = yield* publish(teamId)
          yield* setup.stop
          yield* serveApp(yield* Effect.context<WebhookPorts>(), baseEnv())
          const delivered = yield* hook.arrival(0)
          assert.strictEqual(delivered.headers["webhook-id"], eventId)
        }).pipe(Effect.scoped)
      )
    }
  )
