import { Context, type Duration, Effect } from "effect"
import { nowIso, type PersistenceUnavailable, periodicJob } from "../shared/index.ts"

/** An install state's nonce, consumed when the state is used. */
export interface InstallNonce {
  /** The install flow the state belongs to (`chat-install-state`, `mail-install-state`). */
  readonly purpose: string
  readonly nonce: string
  /** Until when the nonce is remembered: no state carrying it is accepted after that. */
  readonly keepUntil: string
  readonly usedAt: string
}

/** The nonces of the install states already used: each (purpose, nonce) is consumed at most once, whoever races for it. */
export class InstallNoncesRepo extends Context.Service<
  InstallNoncesRepo,
  {
    /** Records the nonce as used in one atomic step; true for the one call that consumed it, false ever after. */
    readonly consume: (nonce: InstallNonce) => Effect.Effect<boolean, PersistenceUnavailable>
    /** Forgets the nonces remembered until before `cutoff`; answers how many. */
    readonly purgeBefore: (cutoff: string) => Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/InstallNoncesRepo") {}

/** Forgets used install nonces once their states can no longer be accepted, every `interval`. */
export const InstallNoncesPurgeJob = (interval: Duration.Input) =>
  periodicJob(
    "install nonces purge",
    Effect.gen(function* () {
      const repo = yield* InstallNoncesRepo
      return yield* repo.purgeBefore(yield* nowIso)
    }),
    interval
  )
