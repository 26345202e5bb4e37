import type { Duration } from "effect"
import { Effect } from "effect"
import { cutoffBefore, periodicJob } from "../shared/index.ts"
import { OAuthRepo } from "./OAuthRepo.ts"

/** Deletes authorization codes and tokens expired for longer than `grace`, by the effect clock; returns how many. */
export const purgeExpiredGrants = (grace: Duration.Input) =>
  Effect.gen(function* () {
    const repo = yield* OAuthRepo
    return yield* repo.purgeExpiredBefore(yield* cutoffBefore(grace))
  })

/** A background job that purges expired OAuth codes and tokens every `interval` for as long as the layer lives. */
export const OAuthPurgeJob = (options: { readonly grace: Duration.Input; readonly interval: Duration.Input }) =>
  periodicJob("OAuth purge", purgeExpiredGrants(options.grace), options.interval)
