import type { Duration } from "effect"
import { Effect } from "effect"
import { periodicJob } from "../shared/index.ts"
import { ChatApprovals } from "./ChatApprovals.ts"

/** Chat passes until the outbox has nothing left to take, then one posting step; answers how many messages it claimed. */
export const chatApprovalsStep = Effect.gen(function* () {
  const chat = yield* ChatApprovals
  while ((yield* chat.fromEvents) > 0) {}
  return yield* chat.postDue
})

/** A background job that brings approvals to the teams' chat channels every `interval` for as long as the layer lives. */
export const ChatApprovalsJob = (interval: Duration.Input) =>
  periodicJob("approvals in chat", chatApprovalsStep, interval)
