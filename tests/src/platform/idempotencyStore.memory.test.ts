import { assert, it } from "@effect/vitest"
import { PortsMemory } from "@svc/adapters-memory"
import { IdempotencyPurgeJob, IdempotencyStore, type TeamId } from "@svc/domain"
import { Clock, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { idempotencyStoreContract } from "./IdempotencyStoreContract.ts"

idempotencyStoreContract("in-memory", PortsMemory, { concurrentLocks: true, lockLabel: "memory" })

it.effect("the purge job keeps a response for the TTL and deletes it after (TestClock)", () =>
  Effect.gen(function* () {
    const store = yield* IdempotencyStore
    const s = {
      teamId: crypto.randomUUID() as TeamId,
      mode: "live" as const,
      credentialId: "c",
      method: "POST",
      path: "/v1/x",
      key: "k"
    }
    const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
    yield* store.exclusive(
      s,
      store.save(s, { fingerprint: "f", status: 201, headers: {}, body: new Uint8Array([1]), createdAt })
    )
    yield* Effect.gen(function* () {
      yield* TestClock.adjust("23 hours")
      assert.isTrue(Option.isSome(yield* store.find(s)))
      yield* TestClock.adjust("2 hours")
      assert.isTrue(Option.isNone(yield* store.find(s)))
    }).pipe(
      Effect.provide(
        IdempotencyPurgeJob({ ttl: "24 hours", interval: "1 hour" }).pipe(
          Layer.provide(Layer.succeed(IdempotencyStore, store))
        )
      )
    )
  }).pipe(Effect.provide(PortsMemory))
)
