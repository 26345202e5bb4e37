import { Clock, Duration, Effect } from "effect"
import type { Client } from "./Client.ts"
import type { PromiseClient } from "./PromiseClient.ts"
import type { SpendRequest } from "./Shapes.ts"

/** How long to wait for a decision and how often to look. */
export interface WaitOptions<A = SpendRequest> {
  /** Stop waiting after this long and answer the request as it then is (still `pending_approval`). */
  readonly timeoutMs?: number
  /** The first wait between two reads; each later wait is 1.5 times longer, at most `maxIntervalMs`. */
  readonly initialIntervalMs?: number
  readonly maxIntervalMs?: number
  /** Called with each read of the request while it is still pending (e.g. to show progress). */
  readonly onPending?: (request: A) => void
}

/** What may wait for a person: a spend request, an x402 payment. */
interface Decidable {
  readonly status: string
  readonly approval: { readonly expiresAt: string } | null
}

/** How long past its approval's expiry a request may still read as pending before the service's sweep expires it. */
const expirySweepGraceMs = 60_000

/**
 * Reads the request until it is no longer `pending_approval` (decided, expired or canceled), waiting longer between
 * reads each time; gives up at `timeoutMs` or a minute after the approval's expiry, answering the last read. The SDK's
 * own: the package's index exports the waits built on it, not it.
 */
export const untilDecided = <A extends Decidable, E>(
  read: Effect.Effect<A, E>,
  options: WaitOptions<A>
): Effect.Effect<A, E> =>
  Effect.gen(function* () {
    const started = yield* Clock.currentTimeMillis
    const deadline = options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : started + options.timeoutMs
    let interval = options.initialIntervalMs ?? 500
    const maxInterval = options.maxIntervalMs ?? 10_000
    for (;;) {
      const request = yield* read
      if (request.status !== "pending_approval") return request
      options.onPending?.(request)
      const expiry = request.approval === null ? Number.NaN : Date.parse(request.approval.expiresAt)
      const giveUpAt = Math.min(deadline, Number.isNaN(expiry) ? deadline : expiry + expirySweepGraceMs)
      const now = yield* Clock.currentTimeMillis
      if (now >= giveUpAt) return request
      yield* Effect.sleep(Duration.millis(Math.min(interval, giveUpAt - now)))
      interval = Math.min(interval * 1.5, maxInterval)
    }
  })

/** Waits for the decision of a spend request pending approval, over the Effect client. */
export const awaitDecision = (client: Client, spendRequestId: string, options: WaitOptions = {}) =>
  untilDecided(client.spendRequests.get({ params: { id: spendRequestId } }), options)

/**
 * Waits for the decision of a spend request pending approval, over the Promise client; answers the request once
 * decided, or as it is when the wait ends undecided. A failed read rejects with its `ApiError`.
 */
export const waitForDecision = (
  client: PromiseClient,
  spendRequestId: string,
  options: WaitOptions = {}
): Promise<SpendRequest> =>
  Effect.runPromise(
    untilDecided(
      Effect.tryPromise({
        try: () => client.spendRequests.get({ params: { id: spendRequestId } }),
        catch: (error) => error
      }),
      options
    )
  )
