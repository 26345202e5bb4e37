import type { ApprovalView } from "../approvals/model.ts"
import type { SpendDecision } from "../spend/model.ts"
import type { TrailStep } from "./ActivityItem.ts"

/** What an item's trail is built from: the ask itself, its policy decision and its approval, as stored. */
export interface TrailInput {
  readonly createdAt: string
  readonly updatedAt: string
  readonly status: string
  /** The actor of the ask: its key's name (or id). */
  readonly requestedBy: string | null
  readonly decision: SpendDecision
  readonly approval: ApprovalView | null
  /** The step a final status adds (`expired`, `captured`, ...) after the approval; none for a status that adds none. */
  readonly finalStep?:
    | { readonly action: string; readonly detail: string | null; readonly amount?: number | undefined }
    | undefined
}

const reasonsText = (decision: SpendDecision): string | null =>
  decision.reasons.length === 0 ? null : decision.reasons.map((r) => r.message).join("; ")

const SYSTEM = "system"

/** The decision's reasons as a step carries them: only when there are some. */
const reasonsOf = (decision: SpendDecision): Pick<TrailStep, "reasons"> =>
  decision.reasons.length === 0 ? {} : { reasons: decision.reasons }

/**
 * An item's trail, oldest first: `requested`, `policy_evaluated` with the policy's reasons, then what the decision led
 * to (`approved` or `denied` at once, or `approval_required` and each member's step with its note, or how the approval
 * ended), then the final status's step. `actorOf` names a member by user id (an e-mail).
 */
export const trailOf = (input: TrailInput, actorOf: (userId: string) => string): ReadonlyArray<TrailStep> => {
  const reasons = reasonsText(input.decision)
  const policy = reasonsOf(input.decision)
  const steps: Array<TrailStep> = [
    { at: input.createdAt, action: "requested", actor: input.requestedBy, detail: null },
    {
      at: input.createdAt,
      action: "policy_evaluated",
      actor: SYSTEM,
      detail: reasons === null ? input.decision.outcome : `${input.decision.outcome}: ${reasons}`,
      ...policy
    }
  ]
  const approval = input.approval
  if (input.decision.outcome !== "pending_approval" || approval === null) {
    steps.push({ at: input.createdAt, action: input.decision.outcome, actor: SYSTEM, detail: reasons, ...policy })
  } else {
    steps.push({ at: input.createdAt, action: "approval_required", actor: SYSTEM, detail: reasons, ...policy })
    for (const step of approval.approvals.decisions) {
      steps.push({ at: step.decidedAt, action: step.decision, actor: actorOf(step.userId), detail: step.note })
    }
    const decidedAt = approval.decidedAt ?? input.updatedAt
    const recorded = approval.approvals.decisions.some((d) => d.decision === approval.status)
    if ((approval.status === "approved" || approval.status === "denied") && !recorded) {
      steps.push({
        at: decidedAt,
        action: approval.status,
        actor: approval.decidedBy === null ? SYSTEM : actorOf(approval.decidedBy),
        detail: approval.note
      })
    } else if (approval.status === "expired" || approval.status === "canceled") {
      steps.push({ at: decidedAt, action: approval.status, actor: SYSTEM, detail: approval.note })
    }
  }
  const last = steps.at(-1)
  const final = input.finalStep
  if (final !== undefined && last?.action !== final.action) {
    steps.push({
      at: input.updatedAt,
      action: final.action,
      actor: SYSTEM,
      detail: final.detail,
      ...(final.amount === undefined ? {} : { amount: final.amount })
    })
  }
  return steps.toSorted((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
}
