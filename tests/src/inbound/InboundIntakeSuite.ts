import { assert } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import { type Answer, baseEnv, post, SECRETS, sign, type WebhookPorts, withApp } from "../support/WebhooksHarness.ts"
import { appEnv, inboundOver, isStored, pathOf } from "./InboundSetup.ts"

const SUCCESS: Record<string, object> = {
  inbox: { success: true },
  "bank-aggregator-a": { success: true },
  "bank-aggregator-b": { success: true },
  "social-premium-payments": { received: true, handled: false },
  "chat-interactions": { ok: true }
}

/** Every endpoint that stores its events (the auth-stream answers a decision instead: tests/src/checkout). */
const SIGNED = Object.keys(SECRETS).concat("bank-aggregator-a")
const TIMESTAMPED = new Set([
  "banking-b",
  "card-issuing-a",
  "billing-a",
  "bank-aggregator-a",
  "bank-aggregator-b",
  "payments",
  "payments-identity",
  "payments-issuing",
  "kyc-c",
  "chat-interactions"
])
const UNAUTHORIZED_401 = new Set(["bank-aggregator-a", "bank-aggregator-b"])
const NOT_CONFIGURED_503 = new Set(["banking-a", "banking-b", "banking-c"])

const bodyFor = (id: string) => JSON.stringify({ id, type: "something.happened", data: { note: "hi" } })

/** The event JSON as `endpoint` receives it: the chat platform posts a form whose `payload` holds it (with `trigger_id`). */
const encoded = (endpoint: string, json: string) =>
  endpoint === "chat-interactions"
    ? `payload=${encodeURIComponent(json.replace(/^\{"id":("[^"]*")/u, '{"id":$1,"trigger_id":$1'))}`
    : json

const tamper = (body: string) => body.replace("hi", "ho")

/** What inbound endpoints accept and store, over whichever ports the caller provides (memory or Postgres). */
export const inboundIntakeSuite = <E>(name: string, ports: Layer.Layer<WebhookPorts, E>) =>
  inboundOver(ports)(`inbound webhook intake (${name})`, (it) => {
    it.effect("every endpoint accepts a valid signature, stores the event and refuses forged or stale requests", () =>
      withApp(appEnv(), (app) =>
        Effect.gen(function* () {
          for (const endpoint of SIGNED) {
            const id = `evt_${crypto.randomUUID()}`
            const body = encoded(endpoint, bodyFor(id))
            const headers = yield* Effect.promise(() => sign(endpoint, body, { id }))
            const ok = yield* post(app, pathOf(endpoint), body, headers)
            assert.strictEqual(ok.status, 200, `${endpoint} accepts a valid signature: ${JSON.stringify(ok.body)}`)
            assert.deepStrictEqual(ok.body, SUCCESS[endpoint] ?? { received: true }, endpoint)
            assert.isTrue(yield* isStored(endpoint, id), `${endpoint} stored the event`)

            const bad = UNAUTHORIZED_401.has(endpoint) ? 401 : 400
            const check = (answer: Answer, what: string) => {
              assert.strictEqual(answer.status, bad, `${endpoint} ${what}: ${JSON.stringify(answer.body)}`)
              assert.isString(answer.body.error, `${endpoint} ${what} names the error`)
            }
            const forgedId = `evt_${crypto.randomUUID()}`
            const forged = encoded(endpoint, bodyFor(forgedId))
            const forgedHeaders = yield* Effect.promise(() => sign(endpoint, forged, { id: forgedId }))
            if (endpoint !== "social-premium-payments") {
              check(yield* post(app, pathOf(endpoint), tamper(forged), forgedHeaders), "tampered body")
            }
            const wrong = yield* Effect.promise(() =>
              sign(endpoint, forged, {
                id: forgedId,
                secret:
                  endpoint.startsWith("banking-b") || endpoint.startsWith("card")
                    ? "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
                    : "wrong-secret"
              })
            )
            check(yield* post(app, pathOf(endpoint), forged, wrong), "wrong secret")
            check(yield* post(app, pathOf(endpoint), forged, {}), "missing header")
            if (TIMESTAMPED.has(endpoint)) {
              const stale = yield* Effect.promise(() =>
                sign(endpoint, forged, { id: forgedId, timestamp: Math.floor(Date.now() / 1000) - 3600 })
              )
              check(yield* post(app, pathOf(endpoint), forged, stale), "stale timestamp")
            }
            assert.isFalse(yield* isStored(endpoint, forgedId), `${endpoint} stored nothing unverified`)
          }
        })
      )
    )

    it.effect("a signed event nested deeper than 64 levels or carrying NUL text is 400 and not stored", () =>
      withApp(appEnv(), (app) =>
        Effect.gen(function* () {
          const withField = (body: string, json: string) => `${body.slice(0, -1)},"extra":${json}}`
          const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`
          for (const endpoint of SIGNED) {
            const refused = [
              ["NUL", JSON.stringify("a\u0000")],
              ["lone surrogate", JSON.stringify({ "\ud800": 1 })],
              ["depth 20,000", nested(20_000)]
            ] as const
            for (const [what, extra] of refused) {
              const id = `evt_${crypto.randomUUID()}`
              const body = encoded(endpoint, withField(bodyFor(id), extra))
              const answer = yield* post(
                app,
                pathOf(endpoint),
                body,
                yield* Effect.promise(() => sign(endpoint, body, { id }))
              )
              assert.strictEqual(answer.status, 400, `${endpoint} ${what}: ${JSON.stringify(answer.body)}`)
              assert.strictEqual(answer.body.error, "invalid_payload", `${endpoint} ${what}`)
              assert.isFalse(yield* isStored(endpoint, id), `${endpoint} ${what} stored nothing`)
            }
            const id = `evt_${crypto.randomUUID()}`
            const deepest = encoded(endpoint, withField(bodyFor(id), nested(63)))
            const ok = yield* post(
              app,
              pathOf(endpoint),
              deepest,
              yield* Effect.promise(() => sign(endpoint, deepest, { id }))
            )
            assert.strictEqual(ok.status, 200, `${endpoint} depth 64: ${JSON.stringify(ok.body)}`)
            assert.isTrue(yield* isStored(endpoint, id), `${endpoint} depth 64 stored`)
          }
          const message = (yield* post(
            app,
            "/webhook/kyc-b",
            withField(bodyFor("e-deep"), nested(100)),
            yield* Effect.promise(() => sign("kyc-b", withField(bodyFor("e-deep"), nested(100))))
          )).body.message
          assert.include(String(message), "64 levels")
        })
      )
    )

    it.effect("an endpoint without a configured secret answers 503 or 400 as SPEC.md says and stores nothing", () =>
      withApp(
        appEnv(
          Object.fromEntries(
            Object.keys(baseEnv())
              .filter(
                (k) =>
                  k.startsWith("WEBHOOK_SECRET_") ||
                  k === "CHAT_SIGNING_SECRET" ||
                  k === "BANK_AGGREGATOR_A_JWKS" ||
                  k === "INBOX_ALLOWED_IPS"
              )
              .map((k) => [k, undefined])
          )
        ),
        (app) =>
          Effect.gen(function* () {
            for (const endpoint of [...SIGNED, "inbox"]) {
              const id = `evt_${crypto.randomUUID()}`
              const body = bodyFor(id)
              const headers = yield* Effect.promise(() => sign(endpoint, body, { id }))
              const answer = yield* post(app, pathOf(endpoint), body, headers)
              assert.strictEqual(answer.status, NOT_CONFIGURED_503.has(endpoint) ? 503 : 400, endpoint)
              assert.strictEqual(answer.body.error, "secret_not_configured", endpoint)
              assert.isFalse(yield* isStored(endpoint, id), endpoint)
            }
          })
      )
    )

    it.effect("payloads without the envelope are 400, and bodies over 1 MiB are 413", () =>
      withApp(appEnv(), (app) =>
        Effect.gen(function* () {
          for (const body of ["not json", "[]", JSON.stringify({ type: "x" }), JSON.stringify({ id: "e1" })]) {
            const answer = yield* post(app, "/webhook/kyc-b", body, yield* Effect.promise(() => sign("kyc-b", body)))
            assert.strictEqual(answer.status, 400, body)
            assert.strictEqual(answer.body.error, "invalid_payload")
          }
          const noType = JSON.stringify({ data: {} })
          const sw = yield* post(
            app,
            "/webhook/banking-b",
            noType,
            yield* Effect.promise(() => sign("banking-b", noType))
          )
          assert.strictEqual(sw.status, 400)
          const huge = JSON.stringify({ id: "big", type: "x", data: "a".repeat(1024 * 1024) })
          const tooBig = yield* post(app, "/webhook/kyc-b", huge, yield* Effect.promise(() => sign("kyc-b", huge)))
          assert.strictEqual(tooBig.status, 413)
          assert.strictEqual(tooBig.body.error, "payload_too_large")
        })
      )
    )

    it.effect("the inbox refuses a source address outside INBOX_ALLOWED_IPS with 403", () =>
      withApp(appEnv({ INBOX_ALLOWED_IPS: "10.0.0.0/8" }), (app) =>
        Effect.gen(function* () {
          const mail = JSON.stringify({ MessageID: "m-2", From: "a@b.c", To: "x@y.z" })
          const answer = yield* post(app, "/webhook/inbox", mail)
          assert.strictEqual(answer.status, 403)
          assert.strictEqual(answer.body.error, "forbidden_ip")
          assert.isFalse(yield* isStored("inbox", "m-2"))
        })
      )
    )
  })
