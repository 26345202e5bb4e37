import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Fiber } from "effect"
import { HttpClient, HttpClientError, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import { retryingClient } from "../src/Client.ts"

type Step = number | { readonly status: number; readonly retryAfter: string } | "connection refused"

/** A fake transport answering each attempt with the next scripted step; records the clock time of every attempt. */
const scripted = (steps: ReadonlyArray<Step>) => {
  const times: Array<number> = []
  const client = HttpClient.make((request) =>
    Effect.gen(function* () {
      times.push(yield* Clock.currentTimeMillis)
      const step = steps[Math.min(times.length - 1, steps.length - 1)]!
      if (step === "connection refused") {
        return yield* new HttpClientError.HttpClientError({
          reason: new HttpClientError.TransportError({ request, description: "connection refused" })
        })
      }
      const status = typeof step === "number" ? step : step.status
      const headers: Record<string, string> = typeof step === "number" ? {} : { "retry-after": step.retryAfter }
      return HttpClientResponse.fromWeb(request, new Response(JSON.stringify({ status }), { status, headers }))
    })
  )
  return { client, times }
}

const send = (steps: ReadonlyArray<Step>, options = { initialDelayMs: 100, maxElapsedMs: 2_000 }) =>
  Effect.gen(function* () {
    const { client, times } = scripted(steps)
    const fiber = yield* Effect.forkChild(Effect.result(retryingClient(options)(client).get("http://svc.test/health")))
    for (let i = 0; i < 100 && fiber.pollUnsafe() === undefined; i++) yield* TestClock.adjust("100 millis")
    return { result: yield* Fiber.join(fiber), times }
  })

describe("retrying HTTP client", () => {
  it.effect("retries 503 twice, then returns the 200", () =>
    Effect.gen(function* () {
      const { result, times } = yield* send([503, 503, 200])
      assert.strictEqual(result._tag === "Success" && result.success.status, 200)
      assert.deepStrictEqual(times, [0, 100, 250])
    })
  )

  it.effect("waits the Retry-After of a 429", () =>
    Effect.gen(function* () {
      const { result, times } = yield* send([{ status: 429, retryAfter: "1" }, 200])
      assert.strictEqual(result._tag === "Success" && result.success.status, 200)
      assert.deepStrictEqual(times, [0, 1_000])
    })
  )

  it.effect("waits the Retry-After of a 409 idempotency_key_in_use, then gets the first request's answer", () =>
    Effect.gen(function* () {
      const { result, times } = yield* send([{ status: 409, retryAfter: "1" }, 201])
      assert.strictEqual(result._tag === "Success" && result.success.status, 201)
      assert.deepStrictEqual(times, [0, 1_000])
    })
  )

  it.effect("retries connection failures", () =>
    Effect.gen(function* () {
      const { result, times } = yield* send(["connection refused", 201])
      assert.strictEqual(result._tag === "Success" && result.success.status, 201)
      assert.strictEqual(times.length, 2)
    })
  )

  it.effect("never retries another 4xx", () =>
    Effect.gen(function* () {
      for (const status of [400, 401, 404, 409, 422]) {
        const { result, times } = yield* send([status, 200])
        assert.strictEqual(result._tag === "Success" && result.success.status, status)
        assert.strictEqual(times.length, 1, `${status} is sent once`)
      }
    })
  )

  it.effect("hands on the last 5xx when the budget runs out", () =>
    Effect.gen(function* () {
      const { result, times } = yield* send([500])
      assert.strictEqual(result._tag === "Success" && result.success.status, 500)
      assert.isAtMost(times.at(-1)!, 2_000)
      assert.isAbove(times.length, 3)
    })
  )

  it.effect("fails with the transport error when the server never answers", () =>
    Effect.gen(function* () {
      const { result, times } = yield* send(["connection refused"])
      assert.strictEqual(result._tag, "Failure")
      if (result._tag === "Failure") assert.strictEqual(result.failure.reason._tag, "TransportError")
      assert.isAbove(times.length, 3)
    })
  )
})
