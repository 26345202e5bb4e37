import { assert, layer } from "@effect/vitest"
import {
  type IdempotencyScope,
  IdempotencyStore,
  isStoredOutcome,
  type StoredAnswer,
  type StoredOutcome,
  type StoredResponse,
  type TeamId
} from "@svc/domain"
import { Deferred, Effect, Fiber, type Layer, Option } from "effect"

const scope = (overrides: Partial<IdempotencyScope> = {}): IdempotencyScope => ({
  teamId: crypto.randomUUID() as TeamId,
  mode: "test",
  credentialId: "key-1",
  method: "POST",
  path: "/v1/spend-requests",
  key: `k-${crypto.randomUUID()}`,
  ...overrides
})

const response = (
  createdAt: string,
  body: Uint8Array = new Uint8Array([0, 255, 128, 10, 34, 123])
): StoredResponse => ({
  fingerprint: "ab".repeat(32),
  status: 201,
  headers: { "content-type": "application/json" },
  body,
  createdAt
})

/** A found answer that must be a rendered response. */
const rendered = (answer: Option.Option<StoredAnswer>): StoredResponse => {
  const found = Option.getOrThrow(answer)
  if (isStoredOutcome(found)) throw new Error("expected a rendered response, found an outcome")
  return found
}

class Boom {
  readonly _tag = "Boom"
}

/** The IdempotencyStore port's contract; `concurrentLocks` when a second transaction can run beside the first. */
export const idempotencyStoreContract = <E>(
  name: string,
  ports: Layer.Layer<IdempotencyStore, E>,
  options: { readonly concurrentLocks: boolean; readonly lockLabel: string }
) =>
  layer(ports, { timeout: "60 seconds" })(`IdempotencyStore contract (${name})`, (it) => {
    it.effect("stores a response and finds it byte for byte, any bytes, including an empty body", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const s = scope()
        assert.isTrue(Option.isNone(yield* store.find(s)))
        const stored = response("2030-01-02T03:04:05.678Z")
        yield* store.exclusive(s, store.save(s, stored))
        const found = rendered(yield* store.find(s))
        assert.deepStrictEqual(Array.from(found.body), Array.from(stored.body))
        assert.deepStrictEqual({ ...found, body: null }, { ...stored, body: null })
        const empty = scope()
        yield* store.exclusive(
          empty,
          store.save(empty, { ...response("2030-01-02T03:04:05.678Z", new Uint8Array(0)), headers: {}, status: 204 })
        )
        const foundEmpty = rendered(yield* store.find(empty))
        assert.strictEqual(foundEmpty.body.length, 0)
        assert.deepStrictEqual(foundEmpty.headers, {})
        assert.strictEqual(foundEmpty.status, 204)
      })
    )

    it.effect("stores a domain's outcome and finds it as stored, its keys untouched, beside rendered responses", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const s = scope()
        const outcome: StoredOutcome = {
          fingerprint: "cd".repeat(32),
          outcome: {
            _tag: "Created",
            request: { metadata: { order_id: "A-1", "Some Key": "x" }, amount: 5, url: null }
          },
          createdAt: "2030-01-02T03:04:05.678Z"
        }
        yield* store.exclusive(s, store.save(s, outcome))
        assert.deepStrictEqual(Option.getOrThrow(yield* store.find(s)), outcome)
        const other = scope()
        const first = response("2030-01-02T03:04:05.678Z")
        const [saved, refused] = yield* store.exclusiveEach([other, s], () =>
          store.saveEach([
            { scope: other, response: first },
            { scope: s, response: { ...outcome, outcome: "later" } }
          ])
        )
        assert.deepStrictEqual([saved, refused], [true, false])
        assert.strictEqual(rendered(yield* store.find(other)).status, 201)
        assert.deepStrictEqual(Option.getOrThrow(yield* store.find(s)), outcome)
      })
    )

    it.effect("a second answer for a scope is refused and the first one stands", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const s = scope()
        const first = response("2030-01-01T00:00:00.000Z", new Uint8Array([1]))
        assert.isTrue(yield* store.exclusive(s, store.save(s, first)).pipe(Effect.map(Option.getOrThrow)))
        const second = { ...response("2030-01-01T00:00:01.000Z", new Uint8Array([2])), status: 200 }
        assert.isFalse(yield* store.exclusive(s, store.save(s, second)).pipe(Effect.map(Option.getOrThrow)))
        const found = rendered(yield* store.find(s))
        assert.strictEqual(found.status, 201)
        assert.deepStrictEqual(Array.from(found.body), [1])
      })
    )

    it.effect("a scope differing in any one part is another scope", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const s = scope()
        yield* store.exclusive(s, store.save(s, response("2030-01-01T00:00:00.000Z")))
        const variants: ReadonlyArray<Partial<IdempotencyScope>> = [
          { teamId: crypto.randomUUID() as TeamId },
          { mode: "live" },
          { credentialId: "key-2" },
          { method: "PUT" },
          { path: "/v1/spend-requests/x/cancel" },
          { key: `${s.key}x` }
        ]
        for (const v of variants) assert.isTrue(Option.isNone(yield* store.find({ ...s, ...v })))
        assert.isTrue(Option.isSome(yield* store.find({ ...s })))
      })
    )

    it.effect("exclusive commits what it saves, and a failure inside rolls the save back", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const s = scope()
        const result = yield* store.exclusive(s, Effect.as(store.save(s, response("2030-01-01T00:00:00.000Z")), 7))
        assert.deepStrictEqual(result, Option.some(7))
        const failed = scope()
        const exit = yield* Effect.exit(
          store.exclusive(
            failed,
            Effect.andThen(store.save(failed, response("2030-01-01T00:00:00.000Z")), Effect.fail(new Boom()))
          )
        )
        assert.isTrue(exit._tag === "Failure")
        assert.isTrue(Option.isNone(yield* store.find(failed)))
        const retried = yield* store.exclusive(failed, Effect.succeed("again"))
        assert.deepStrictEqual(retried, Option.some("again"))
      })
    )

    if (options.concurrentLocks) {
      it.effect(
        `(${options.lockLabel}) while one request holds a scope, another gets none at once; then it is free`,
        () =>
          Effect.gen(function* () {
            const store = yield* IdempotencyStore
            const s = scope()
            const entered = yield* Deferred.make<void>()
            const release = yield* Deferred.make<void>()
            const holder = yield* Effect.forkChild(
              store.exclusive(s, Effect.andThen(Deferred.succeed(entered, undefined), Deferred.await(release)))
            )
            yield* Deferred.await(entered)
            const contended = yield* store.exclusive(s, Effect.succeed("second"))
            assert.isTrue(Option.isNone(contended))
            yield* Deferred.succeed(release, undefined)
            yield* Fiber.join(holder)
            assert.deepStrictEqual(yield* store.exclusive(s, Effect.succeed("third")), Option.some("third"))
          })
      )
    }

    it.effect("purges responses created before the cutoff and keeps the rest", () =>
      Effect.gen(function* () {
        const store = yield* IdempotencyStore
        const old = scope()
        const fresh = scope()
        yield* store.exclusive(old, store.save(old, response("2001-01-01T00:00:00.000Z")))
        yield* store.exclusive(fresh, store.save(fresh, response("2001-01-02T00:00:00.001Z")))
        const purged = yield* store.purgeCreatedBefore("2001-01-02T00:00:00.000Z")
        assert.isAtLeast(purged, 1)
        assert.isTrue(Option.isNone(yield* store.find(old)))
        assert.isTrue(Option.isSome(yield* store.find(fresh)))
      })
    )
  })
