import type { LookupAddress } from "node:dns"
import { readFileSync } from "node:fs"
import { getCACertificates, setDefaultCACertificates } from "node:tls"
import { assert, describe, it } from "@effect/vitest"
import { type HostResolver, StandardWebhooksSender, WebhookHostResolver } from "@svc/adapters-webhooks"
import { WebhookDestinations, WebhookSender, WebhookSendFailed } from "@svc/domain"
import { Effect, Layer } from "effect"
import { receiver } from "../support/Receiver.ts"

/** A resolver that answers each call with the next of `answers` (the last one again after that) and counts its calls. */
const scriptedResolver = (answers: ReadonlyArray<ReadonlyArray<LookupAddress>>) => {
  const calls: Array<string> = []
  const resolve: HostResolver = async (hostname) => {
    calls.push(hostname)
    return answers[Math.min(calls.length, answers.length) - 1]!
  }
  return { calls, resolve }
}

const v4 = (address: string): LookupAddress => ({ address, family: 4 })

const fixture = (name: string) => readFileSync(new URL(`../support/tls/${name}`, import.meta.url), "utf8")
/** A certificate for `hooks.test` only, issued by a test CA that this test file's process trusts. */
const HOOKS_TEST_TLS = { key: fixture("hooks.test-key.pem"), cert: fixture("hooks.test.pem") }

/** Sends one webhook to `url` through the sender built with the given destination mode and resolver. */
const send = (url: string, allowPrivateDestinations: boolean, resolve: HostResolver) =>
  Effect.gen(function* () {
    const sender = yield* WebhookSender
    return yield* sender
      .send({
        url,
        webhookId: "msg_1",
        timestampSeconds: 1_700_000_000,
        body: '{"id":"msg_1"}',
        secrets: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
        timeoutMs: 2_000
      })
      .pipe(Effect.result)
  }).pipe(
    Effect.provide(
      StandardWebhooksSender.pipe(
        Layer.provide(Layer.succeed(WebhookDestinations, { allowPrivateDestinations })),
        Layer.provide(Layer.succeed(WebhookHostResolver, resolve))
      )
    )
  )

const portOf = (url: string) => new URL(url).port

const assertRefused = (result: Effect.Success<ReturnType<typeof send>>) => {
  assert.strictEqual(result._tag, "Failure")
  if (result._tag !== "Failure") return
  assert.instanceOf(result.failure, WebhookSendFailed)
  assert.strictEqual(result.failure.reason, "refused")
  assert.strictEqual(result.failure.message, "destination address is not allowed")
}

describe("StandardWebhooksSender destinations", () => {
  it.effect("refuses a host name that resolves to a loopback address, without connecting", () =>
    Effect.gen(function* () {
      const hook = yield* receiver(() => ({ status: 200 }))
      const dns = scriptedResolver([[v4("127.0.0.1")]])
      assertRefused(yield* send(`https://internal.test:${portOf(hook.url)}/hook`, false, dns.resolve))
      assert.deepStrictEqual(dns.calls, ["internal.test"])
      assert.strictEqual(hook.received.length, 0)
    }).pipe(Effect.scoped)
  )

  it.effect("refuses a host name when any of its addresses is not public", () =>
    Effect.gen(function* () {
      for (const answer of [
        [v4("8.8.8.8"), v4("169.254.169.254")],
        [
          { address: "2001:4860:4860::8888", family: 6 },
          { address: "::ffff:10.0.0.1", family: 6 }
        ],
        [v4("198.18.0.1")],
        [v4("224.0.0.1")]
      ]) {
        assertRefused(yield* send("https://hooks.example.com/hook", false, scriptedResolver([answer]).resolve))
      }
    })
  )

  it.effect("refuses non-public IP literals and http without resolving anything", () =>
    Effect.gen(function* () {
      const dns = scriptedResolver([[v4("8.8.8.8")]])
      for (const url of ["https://127.1/", "https://[::1]/", "https://0x7f.0.0.1/", "http://hooks.example.com/"]) {
        assertRefused(yield* send(url, false, dns.resolve))
      }
      assert.deepStrictEqual(dns.calls, [])
    })
  )

  it.effect("resolves once and connects to the checked answer, with the host name kept in Host", () =>
    Effect.gen(function* () {
      const hook = yield* receiver(() => ({ status: 204 }))
      const dns = scriptedResolver([[v4("127.0.0.1")], [v4("127.0.0.2")]])
      const url = `http://hooks.test:${portOf(hook.url)}/hook`
      const result = yield* send(url, true, dns.resolve)
      assert.deepStrictEqual(result._tag === "Success" ? result.success.status : result, 204)
      assert.deepStrictEqual(
        dns.calls,
        ["hooks.test"],
        "the resolver is consulted once; the connection does not look up again"
      )
      assert.strictEqual(hook.received.length, 1)
      assert.strictEqual(hook.received[0]!.headers.host, `hooks.test:${portOf(hook.url)}`)
      assert.strictEqual(hook.received[0]!.body, '{"id":"msg_1"}')
    }).pipe(Effect.scoped)
  )

  it.effect("over https the pinned connection sends the host name for SNI and checks the certificate against it", () =>
    Effect.gen(function* () {
      setDefaultCACertificates([...getCACertificates("default"), fixture("ca.pem")])
      const hook = yield* receiver(() => ({ status: 204 }), HOOKS_TEST_TLS)
      const loopback = scriptedResolver([[v4("127.0.0.1")]]).resolve
      const matching = yield* send(`https://hooks.test:${portOf(hook.url)}/hook`, true, loopback)
      assert.deepStrictEqual(matching._tag === "Success" ? matching.success.status : matching, 204)
      const other = yield* send(`https://other.test:${portOf(hook.url)}/hook`, true, loopback)
      assert.strictEqual(other._tag === "Failure" ? other.failure.reason : other._tag, "network")
      assert.strictEqual(hook.received.length, 1)
    }).pipe(Effect.scoped)
  )

  it.effect("a redirect is the answer, not followed", () =>
    Effect.gen(function* () {
      const target = yield* receiver(() => ({ status: 200 }))
      const hook = yield* receiver(() => ({ status: 302, headers: { location: target.url } }))
      const result = yield* send(hook.url, true, scriptedResolver([]).resolve)
      assert.deepStrictEqual(result._tag === "Success" ? result.success.status : result, 302)
      assert.strictEqual(hook.received.length, 1)
      assert.strictEqual(target.received.length, 0)
    }).pipe(Effect.scoped)
  )

  it.effect("development mode reaches localhost through the system resolver", () =>
    Effect.gen(function* () {
      const hook = yield* receiver(() => ({ status: 200 }))
      const result = yield* send(`http://localhost:${portOf(hook.url)}/hook`, true, WebhookHostResolver.defaultValue())
      assert.deepStrictEqual(result._tag === "Success" ? result.success.status : result, 200)
      assert.strictEqual(hook.received.length, 1)
    }).pipe(Effect.scoped)
  )
})
