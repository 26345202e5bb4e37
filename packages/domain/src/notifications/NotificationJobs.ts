import type { Duration } from "effect"
import { Effect } from "effect"
import { periodicJob } from "../shared/index.ts"
import { Notifications } from "./Notifications.ts"

/** Notification passes until the outbox has nothing left to take; answers how many events they took. */
export const notifyAllPending = Effect.gen(function* () {
  const notifications = yield* Notifications
  let total = 0
  for (;;) {
    const taken = yield* notifications.fromEvents
    total += taken
    if (taken === 0) return total
  }
})

/** A background job that turns new outbox events into notifications every `interval` for as long as the layer lives. */
export const NotificationsJob = (interval: Duration.Input) =>
  periodicJob("notifications from events", notifyAllPending, interval)
