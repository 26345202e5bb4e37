import { assert, layer } from "@effect/vitest"
import { IdempotencyStore } from "@svc/domain"
import { Context, Deferred, Effect, Exit, Fiber, type Layer, Ref, Scope } from "effect"
import { instanceOver, newAgent, Probe, type ProbeServices, postedOf, type Sabotage } from "../support/ProbeApi.ts"

type Handler = (request: Request) => Promise<Response>

/** A response read whole: status, headers and the exact body bytes. */
interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly bytes: Uint8Array
  readonly json: Record<string, unknown>
}

const read = (response: Response) =>
  Effect.promise(async (): Promise<Reply> => {
    const bytes = new Uint8Array(await response.arrayBuffer())
    const text = new TextDecoder().decode(bytes)
    return { status: response.status, headers: response.headers, bytes, json: text === "" ? {} : JSON.parse(text) }
  })

/** Sends a POST as the agent behind `token`; `key` undefined sends no Idempotency-Key. */
const post = (
  handler: Handler,
  path: string,
  body: string,
  options: { readonly token: string; readonly key?: string | undefined }
) =>
  Effect.promise(() =>
    handler(
      new Request(`http://localhost${path}`, {
        method: "POST",
        body,
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${options.token}`,
          ...(options.key === undefined ? {} : { "idempotency-key": options.key })
        }
      })
    )
  ).pipe(Effect.flatMap(read))

const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b))

const sabotageNext = (what: Sabotage) =>
  Effect.gen(function* () {
    const probe = yield* Probe
    yield* Ref.set(probe.next, what)
    yield* Ref.set(probe.entered, yield* Deferred.make<void>())
    yield* Ref.set(probe.release, yield* Deferred.make<void>())
  })

const runs = Effect.gen(function* () {
  return yield* Ref.get((yield* Probe).runs)
})

const awaitEntered = Effect.gen(function* () {
  yield* Deferred.await(yield* Ref.get((yield* Probe).entered))
})

const release = Effect.gen(function* () {
  yield* Deferred.succeed(yield* Ref.get((yield* Probe).release), undefined)
})

/** Builds a second "process" over the same database; memory: over the same store. */
export type SecondInstance = Effect.Effect<Context.Context<ProbeServices>, never, Scope.Scope | ProbeServices>

/**
 * The Idempotency contract of CONTRACT.md over HTTP, on one backend. `concurrentLocks` says whether a second request
 * can run while the first holds its transaction (memory and real Postgres) or queues behind it (embedded PGlite).
 */
export const idempotencySuite = (
  name: string,
  backend: Layer.Layer<ProbeServices | import("@svc/domain").TeamOpening, unknown>,
  options: {
    readonly concurrentLocks: boolean
    /** Whether another key's transaction can run meanwhile (real Postgres; the memory store serialises them). */
    readonly parallelTransactions: boolean
    readonly lockLabel: string
    readonly secondInstance: SecondInstance
  }
) =>
  layer(backend, { timeout: "60 seconds" })(`idempotency over HTTP (${name})`, (it) => {
    const app = Effect.gen(function* () {
      const context = yield* Effect.context<ProbeServices>()
      return (yield* instanceOver(context)).handler
    })

    const agentAndApp = Effect.gen(function* () {
      yield* sabotageNext("none")
      const token = `tok_${crypto.randomUUID()}`
      const agent = yield* newAgent(token)
      return { token, agent, handler: yield* app }
    })

    const body = (amount: number, outcome?: string) =>
      JSON.stringify(outcome === undefined ? { amount } : { amount, outcome })

    it.effect("replays the first response byte for byte with Idempotent-Replayed: true and runs the work once", () =>
      Effect.gen(function* () {
        const { token, agent, handler } = yield* agentAndApp
        const before = yield* runs
        const first = yield* post(handler, "/v1/probe/required", body(700), { token, key: "k-replay" })
        const second = yield* post(handler, "/v1/probe/required", body(700), { token, key: "k-replay" })
        assert.strictEqual(first.status, 201)
        assert.strictEqual(first.headers.get("idempotent-replayed"), null)
        assert.strictEqual(second.status, 201)
        assert.strictEqual(second.headers.get("idempotent-replayed"), "true")
        assert.isTrue(sameBytes(first.bytes, second.bytes))
        assert.strictEqual(second.headers.get("content-type"), first.headers.get("content-type"))
        assert.strictEqual(first.json.posted, 700)
        assert.strictEqual((yield* runs) - before, 1)
        assert.strictEqual(yield* postedOf(agent), 700)
      })
    )

    it.effect(
      "a request whose key was answered between its look-up and its lock rolls back and replays that answer",
      () =>
        Effect.gen(function* () {
          const { token, agent, handler } = yield* agentAndApp
          const first = yield* post(handler, "/v1/probe/required", body(700), { token, key: "k-raced" })
          const context = yield* Effect.context<ProbeServices>()
          const store = Context.get(context, IdempotencyStore)
          let lookups = 0
          const lagging = IdempotencyStore.of({
            ...store,
            find: (scope) => (lookups++ === 0 ? Effect.succeedNone : store.find(scope))
          })
          const late = (yield* instanceOver(Context.add(context, IdempotencyStore, lagging))).handler
          const before = yield* runs
          const second = yield* post(late, "/v1/probe/required", body(700), { token, key: "k-raced" })
          assert.strictEqual((yield* runs) - before, 1, "the late request ran its handler")
          assert.strictEqual(second.status, 201)
          assert.strictEqual(second.headers.get("idempotent-replayed"), "true")
          assert.isTrue(sameBytes(first.bytes, second.bytes))
          assert.strictEqual(yield* postedOf(agent), 700, "its posting rolled back")
        })
    )

    it.effect("the same key with a different body answers 422 idempotency_key_reused and runs nothing", () =>
      Effect.gen(function* () {
        const { token, agent, handler } = yield* agentAndApp
        yield* post(handler, "/v1/probe/required", body(100), { token, key: "k-reuse" })
        const before = yield* runs
        const changed = yield* post(handler, "/v1/probe/required", body(101), { token, key: "k-reuse" })
        const reordered = yield* post(handler, "/v1/probe/required", '{ "amount": 100 }', { token, key: "k-reuse" })
        for (const reply of [changed, reordered]) {
          assert.strictEqual(reply.status, 422)
          assert.deepStrictEqual(reply.json.error, "idempotency_key_reused")
          assert.strictEqual(reply.json.code, 422)
          assert.isString(reply.json.message)
        }
        assert.strictEqual((yield* runs) - before, 0)
        assert.strictEqual(yield* postedOf(agent), 100)
      })
    )

    it.effect("the key is scoped to the route and the credential: the same key elsewhere runs on its own", () =>
      Effect.gen(function* () {
        const { token, agent, handler } = yield* agentAndApp
        const otherToken = `tok_${crypto.randomUUID()}`
        const other = yield* newAgent(otherToken)
        const a = yield* post(handler, "/v1/probe/required", body(10), { token, key: "shared" })
        const b = yield* post(handler, "/v1/probe/other", body(20), { token, key: "shared" })
        const c = yield* post(handler, "/v1/probe/required", body(30), { token: otherToken, key: "shared" })
        for (const reply of [a, b, c]) {
          assert.strictEqual(reply.status, 201)
          assert.strictEqual(reply.headers.get("idempotent-replayed"), null)
        }
        assert.strictEqual(yield* postedOf(agent), 30)
        assert.strictEqual(yield* postedOf(other), 30)
      })
    )

    it.effect("a 400 is not stored: the corrected retry with the same key runs normally", () =>
      Effect.gen(function* () {
        const { token, agent, handler } = yield* agentAndApp
        const bad = yield* post(handler, "/v1/probe/required", '{"amount":"lots"}', { token, key: "k-400" })
        assert.strictEqual(bad.status, 400)
        assert.strictEqual(bad.json.error, "validation_failed")
        const malformed = yield* post(handler, "/v1/probe/required", '{"amount":', { token, key: "k-400" })
        assert.strictEqual(malformed.status, 400)
        const good = yield* post(handler, "/v1/probe/required", body(55), { token, key: "k-400" })
        assert.strictEqual(good.status, 201)
        assert.strictEqual(good.headers.get("idempotent-replayed"), null)
        assert.strictEqual(yield* postedOf(agent), 55)
      })
    )

    for (const [sabotage, status] of [
      ["unavailable", 503],
      ["die", 500]
    ] as const) {
      it.effect(
        `a ${status} after the handler wrote rolls the write back and stores nothing; the retry runs once`,
        () =>
          Effect.gen(function* () {
            const { token, agent, handler } = yield* agentAndApp
            yield* sabotageNext(sabotage)
            const failed = yield* post(handler, "/v1/probe/required", body(300), { token, key: `k-${status}` })
            assert.strictEqual(failed.status, status)
            assert.strictEqual(failed.json.code, status)
            assert.notInclude(new TextDecoder().decode(failed.bytes), "boom")
            assert.strictEqual(yield* postedOf(agent), 0)
            const retry = yield* post(handler, "/v1/probe/required", body(300), { token, key: `k-${status}` })
            assert.strictEqual(retry.status, 201)
            assert.strictEqual(retry.headers.get("idempotent-replayed"), null)
            const again = yield* post(handler, "/v1/probe/required", body(300), { token, key: `k-${status}` })
            assert.strictEqual(again.headers.get("idempotent-replayed"), "true")
            assert.strictEqual(yield* postedOf(agent), 300)
          })
      )
    }

    it.effect("a declared 4xx is stored and replayed, with exactly the bytes a request without a key gets", () =>
      Effect.gen(function* () {
        const { token, handler } = yield* agentAndApp
        const plain = yield* post(handler, "/v1/probe/optional", body(1, "not_found"), { token })
        const first = yield* post(handler, "/v1/probe/optional", body(1, "not_found"), { token, key: "k-404" })
        const replayed = yield* post(handler, "/v1/probe/optional", body(1, "not_found"), { token, key: "k-404" })
        assert.strictEqual(plain.status, 404)
        assert.deepStrictEqual(plain.json, { error: "not_found", code: 404, message: "no such thing" })
        assert.strictEqual(first.status, 404)
        assert.isTrue(sameBytes(plain.bytes, first.bytes))
        assert.strictEqual(first.headers.get("content-type"), plain.headers.get("content-type"))
        assert.strictEqual(replayed.status, 404)
        assert.strictEqual(replayed.headers.get("idempotent-replayed"), "true")
        assert.isTrue(sameBytes(first.bytes, replayed.bytes))
        const conflictFirst = yield* post(handler, "/v1/probe/optional", body(1, "conflict"), { token, key: "k-409" })
        const conflictAgain = yield* post(handler, "/v1/probe/optional", body(1, "conflict"), { token, key: "k-409" })
        assert.strictEqual(conflictFirst.status, 409)
        assert.strictEqual(conflictAgain.status, 409)
        assert.strictEqual(conflictAgain.headers.get("idempotent-replayed"), "true")
        assert.isTrue(sameBytes(conflictFirst.bytes, conflictAgain.bytes))
      })
    )

    it.effect("a declared 4xx after the handler wrote rolls the write back; the 4xx is stored and replayed", () =>
      Effect.gen(function* () {
        const { token, agent, handler } = yield* agentAndApp
        const before = yield* runs
        const refused = yield* post(handler, "/v1/probe/required", body(800, "conflict"), { token, key: "k-undone" })
        assert.strictEqual(refused.status, 409)
        assert.strictEqual(refused.json.error, "probe_conflict")
        assert.strictEqual(yield* postedOf(agent), 0, "the refused request's deposit is not kept")
        const replayed = yield* post(handler, "/v1/probe/required", body(800, "conflict"), { token, key: "k-undone" })
        assert.strictEqual(replayed.status, 409)
        assert.strictEqual(replayed.headers.get("idempotent-replayed"), "true")
        assert.isTrue(sameBytes(refused.bytes, replayed.bytes))
        assert.strictEqual((yield* runs) - before, 1)
        assert.strictEqual(yield* postedOf(agent), 0)
      })
    )

    it.effect(
      "a missing or malformed key: 400 naming the Idempotency-Key header where required, optional elsewhere",
      () =>
        Effect.gen(function* () {
          const { token, agent, handler } = yield* agentAndApp
          const missing = yield* post(handler, "/v1/probe/required", body(5), { token })
          assert.strictEqual(missing.status, 400)
          assert.strictEqual(missing.json.error, "idempotency_key_required")
          assert.include(String(missing.json.message), "Idempotency-Key")
          assert.deepStrictEqual((missing.json.details as Array<{ path: string }>)[0]?.path, "headers.idempotency-key")
          for (const key of ["", "x".repeat(256)]) {
            const bad = yield* post(handler, "/v1/probe/required", body(5), { token, key })
            assert.strictEqual(bad.status, 400)
            assert.strictEqual(bad.json.error, "validation_failed")
            assert.include(String(bad.json.message), "Idempotency-Key")
          }
          const longest = yield* post(handler, "/v1/probe/required", body(5), { token, key: "y".repeat(255) })
          assert.strictEqual(longest.status, 201)
          const free1 = yield* post(handler, "/v1/probe/optional", body(5), { token })
          const free2 = yield* post(handler, "/v1/probe/optional", body(5), { token })
          assert.strictEqual(free1.status, 201)
          assert.strictEqual(free2.status, 201)
          assert.strictEqual(free2.headers.get("idempotent-replayed"), null)
          assert.strictEqual(yield* postedOf(agent), 15)
          const unauthenticated = yield* post(handler, "/v1/probe/required", body(5), { token: "nope", key: "k" })
          assert.strictEqual(unauthenticated.status, 401)
        })
    )

    it.effect(
      "a request killed mid-handler (its fiber interrupted, its instance shut down) leaves nothing; the retry completes once",
      () =>
        Effect.gen(function* () {
          yield* sabotageNext("none")
          const token = `tok_${crypto.randomUUID()}`
          const agent = yield* newAgent(token)
          const doomedScope = yield* Scope.make()
          const doomed = yield* instanceOver(yield* options.secondInstance).pipe(Scope.provide(doomedScope))
          yield* sabotageNext("hang")
          const abort = new AbortController()
          const inFlight = yield* Effect.forkChild(
            Effect.promise(() =>
              doomed
                .handler(
                  new Request("http://localhost/v1/probe/required", {
                    method: "POST",
                    body: body(900),
                    signal: abort.signal,
                    headers: {
                      authorization: `Bearer ${token}`,
                      "idempotency-key": "k-crash",
                      "content-type": "application/json"
                    }
                  })
                )
                .then(
                  (r) => r.status,
                  () => 0
                )
            )
          )
          yield* awaitEntered
          abort.abort()
          const crashedStatus = yield* Fiber.join(inFlight)
          yield* Scope.close(doomedScope, Exit.void)
          assert.notStrictEqual(crashedStatus, 201)
          assert.strictEqual(yield* postedOf(agent), 0)
          const survivor = yield* app
          const retry = yield* post(survivor, "/v1/probe/required", body(900), { token, key: "k-crash" })
          assert.strictEqual(retry.status, 201)
          assert.strictEqual(retry.headers.get("idempotent-replayed"), null)
          const replay = yield* post(survivor, "/v1/probe/required", body(900), { token, key: "k-crash" })
          assert.strictEqual(replay.headers.get("idempotent-replayed"), "true")
          assert.strictEqual(yield* postedOf(agent), 900)
        }).pipe(Effect.ensuring(release))
    )

    const inFlightTitle = options.concurrentLocks
      ? `(${options.lockLabel}) a retry while the first is in flight gets 409 idempotency_key_in_use with Retry-After: 1`
      : `(${options.lockLabel}) a retry while the first is in flight waits for it, then replays its response`

    it.effect(inFlightTitle, () =>
      Effect.gen(function* () {
        const { token, agent, handler } = yield* agentAndApp
        yield* sabotageNext("hang")
        const first = yield* Effect.forkChild(post(handler, "/v1/probe/required", body(40), { token, key: "k-flight" }))
        yield* awaitEntered
        if (options.concurrentLocks) {
          const busy = yield* post(handler, "/v1/probe/required", body(40), { token, key: "k-flight" })
          assert.strictEqual(busy.status, 409)
          assert.strictEqual(busy.json.error, "idempotency_key_in_use")
          assert.strictEqual(busy.headers.get("retry-after"), "1")
          if (options.parallelTransactions) {
            const otherToken = `tok_${crypto.randomUUID()}`
            yield* newAgent(otherToken)
            const otherKey = yield* post(handler, "/v1/probe/required", body(1), { token: otherToken, key: "k-flight" })
            assert.strictEqual(otherKey.status, 201)
          }
          yield* release
          const done = yield* Fiber.join(first)
          assert.strictEqual(done.status, 201)
          const after = yield* post(handler, "/v1/probe/required", body(40), { token, key: "k-flight" })
          assert.strictEqual(after.headers.get("idempotent-replayed"), "true")
          assert.isTrue(sameBytes(done.bytes, after.bytes))
          assert.strictEqual(yield* postedOf(agent), 40)
        } else {
          const waiting = yield* Effect.forkChild(
            post(handler, "/v1/probe/required", body(40), { token, key: "k-flight" })
          )
          yield* release
          const done = yield* Fiber.join(first)
          const second = yield* Fiber.join(waiting)
          assert.strictEqual(done.status, 201)
          assert.strictEqual(second.status, 201)
          assert.strictEqual(second.headers.get("idempotent-replayed"), "true")
          assert.isTrue(sameBytes(done.bytes, second.bytes))
          assert.strictEqual(yield* postedOf(agent), 40)
        }
      }).pipe(Effect.ensuring(release))
    )

    it.effect("two instances sharing one store share keys: one runs, the other replays or answers 409", () =>
      Effect.gen(function* () {
        const { token, agent, handler } = yield* agentAndApp
        const otherHandler = (yield* instanceOver(yield* options.secondInstance)).handler
        const a = yield* post(handler, "/v1/probe/required", body(70), { token, key: "k-two" })
        const b = yield* post(otherHandler, "/v1/probe/required", body(70), { token, key: "k-two" })
        assert.strictEqual(a.status, 201)
        assert.strictEqual(b.headers.get("idempotent-replayed"), "true")
        assert.isTrue(sameBytes(a.bytes, b.bytes))
        if (options.concurrentLocks) {
          yield* sabotageNext("hang")
          const first = yield* Effect.forkChild(post(handler, "/v1/probe/required", body(5), { token, key: "k-two-b" }))
          yield* awaitEntered
          const busy = yield* post(otherHandler, "/v1/probe/required", body(5), { token, key: "k-two-b" })
          assert.strictEqual(busy.status, 409)
          yield* release
          assert.strictEqual((yield* Fiber.join(first)).status, 201)
          assert.strictEqual(yield* postedOf(agent), 75)
        } else {
          assert.strictEqual(yield* postedOf(agent), 70)
        }
      }).pipe(Effect.ensuring(release))
    )
  })
