import { type Effect, Metric } from "effect"
import type { SpendRequest, Transition } from "./SpendRequest.ts"

const decisions = Metric.counter("spend_decisions_total", {
  description: "New spend requests by the decision they got on creation: approved, pending_approval or denied"
})

const approvalOutcomes = Metric.counter("spend_approval_outcomes_total", {
  description: "Spend requests that left pending_approval, by how: approved, denied, expired or cancelled"
})

/** Counts the decision a new request got, once it is committed. */
export const countDecision = (request: SpendRequest): Effect.Effect<void> =>
  Metric.update(Metric.withAttributes(decisions, { outcome: request.status }), 1)

/** Counts a pending request's end, once it is committed. */
export const countApprovalOutcome = (outcome: Transition["status"]): Effect.Effect<void> =>
  Metric.update(Metric.withAttributes(approvalOutcomes, { outcome }), 1)
