import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Ref } from "effect"
import { MemoryStore } from "../../src/shared/MemoryStore.ts"

describe("MemoryStore.atomically", () => {
  it.effect("rolls every table back when the transaction fails", () =>
    Effect.gen(function* () {
      const store = yield* MemoryStore
      const table = yield* store.table(0)
      const failed = yield* Effect.flip(store.atomically(Ref.set(table, 1).pipe(Effect.andThen(Effect.fail("boom")))))
      assert.strictEqual(failed, "boom")
      assert.strictEqual(yield* Ref.get(table), 0)
    }).pipe(Effect.provide(MemoryStore.layer))
  )

  it.effect("rolls every table back when the transaction is interrupted mid-way", () =>
    Effect.gen(function* () {
      const store = yield* MemoryStore
      const table = yield* store.table(0)
      const written = yield* Deferred.make<void>()
      const fiber = yield* Effect.forkChild(
        store.atomically(
          Ref.set(table, 1).pipe(Effect.andThen(Deferred.succeed(written, undefined)), Effect.andThen(Effect.never))
        )
      )
      yield* Deferred.await(written)
      assert.strictEqual(yield* Ref.get(table), 1)
      yield* Fiber.interrupt(fiber)
      assert.strictEqual(yield* Ref.get(table), 0)
      yield* store.atomically(Ref.set(table, 2))
      assert.strictEqual(yield* Ref.get(table), 2, "the lock was released")
    }).pipe(Effect.provide(MemoryStore.layer))
  )

  it.effect("nested calls join the outer transaction and roll back with it", () =>
    Effect.gen(function* () {
      const store = yield* MemoryStore
      const table = yield* store.table(0)
      yield* Effect.flip(
        store.atomically(store.atomically(Ref.set(table, 5)).pipe(Effect.andThen(Effect.fail("outer fails"))))
      )
      assert.strictEqual(yield* Ref.get(table), 0)
    }).pipe(Effect.provide(MemoryStore.layer))
  )
})
