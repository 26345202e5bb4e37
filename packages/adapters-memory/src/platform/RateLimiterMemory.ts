import { type BucketState, decisionOf, IDLE_BUCKET_MILLIS, RateLimiter, takeToken } from "@svc/domain"
import { Clock, Effect, HashMap, Layer, Option, Ref } from "effect"

/** RateLimiter for one process: buckets in memory, timed by the effect clock. */
export const RateLimiterMemory = Layer.effect(
  RateLimiter,
  Effect.gen(function* () {
    const buckets = yield* Ref.make(HashMap.empty<string, BucketState>())
    return RateLimiter.of({
      take: (key, limit) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const { state, allowed } = yield* Ref.modify(buckets, (map) => {
            const next = takeToken(Option.getOrUndefined(HashMap.get(map, key)), now, limit)
            return [next, HashMap.set(map, key, next.state)] as const
          })
          return decisionOf(limit, state.tokens, allowed)
        }),
      prune: Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        return yield* Ref.modify(buckets, (map) => {
          const kept = HashMap.filter(map, (b) => now - b.updatedAtMillis < IDLE_BUCKET_MILLIS)
          return [HashMap.size(map) - HashMap.size(kept), kept] as const
        })
      })
    })
  })
)
