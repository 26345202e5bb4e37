import { Schema } from "effect"
import { Role } from "../identity/model.ts"
import { AmountMinor, EXAMPLE_ID } from "../shared/model.ts"

/** Who must approve a request routed to approval, and how many of them. */
export const RequiredApprovers = Schema.Struct({
  /** Distinct eligible members whose approvals make the quorum. */
  required: Schema.Int.annotate({
    description: "How many distinct eligible members must approve (at least 1).",
    examples: [1]
  }),
  /** Team roles whose members may approve. */
  roles: Schema.Array(Role).annotate({
    description: "The team roles whose members may approve.",
    examples: [["owner", "admin"]]
  }),
  /** Whether one of the approvals must be the team owner's. */
  requireOwner: Schema.Boolean.annotate({ description: "Whether one of the approvals must be the team owner's." })
})

/** Who must approve a request routed to approval, and how many of them. */
export type RequiredApprovers = typeof RequiredApprovers.Type

/** Who approves a request below every tier, or when the team has no tiers: one owner or admin. */
export const DEFAULT_APPROVERS: RequiredApprovers = { required: 1, roles: ["owner", "admin"], requireOwner: false }

/** The most approvals a tier may require. */
export const MAX_TIER_APPROVALS = 20

/** The most tiers a team may set. */
export const MAX_APPROVAL_TIERS = 10

/** One amount tier of a team's approval chain: requests of at least `minAmount` need this quorum. */
export const ApprovalTier = Schema.Struct({
  /** The smallest amount (minor units) the tier covers; it covers up to the next tier's `minAmount`. */
  minAmount: AmountMinor,
  /** How many distinct eligible members must approve. */
  approvals: Schema.Int.check(
    Schema.isBetween(
      { minimum: 1, maximum: MAX_TIER_APPROVALS },
      { message: `expected a whole number of approvals between 1 and ${MAX_TIER_APPROVALS}` }
    )
  ),
  /** The team roles whose members may approve (and deny) requests of this tier. */
  roles: Schema.Array(Role).check(Schema.isMinLength(1, { message: "expected at least one role" })),
  /** Whether one of the approvals must be the team owner's. */
  requireOwner: Schema.optionalKey(Schema.Boolean)
})

/** One amount tier of a team's approval chain. */
export type ApprovalTier = typeof ApprovalTier.Type

/**
 * A team's approval chain: tiers in strictly increasing `minAmount`. A request at or above the first tier's
 * `minAmount` goes to approval, and the highest tier it reaches says who approves and how many.
 */
export const ApprovalRules = Schema.Struct({
  tiers: Schema.Array(ApprovalTier).check(
    Schema.isMaxLength(MAX_APPROVAL_TIERS, { message: `expected at most ${MAX_APPROVAL_TIERS} tiers` })
  )
})

/** A team's approval chain. */
export type ApprovalRules = typeof ApprovalRules.Type

/** The tier a request of `amount` reaches (its position, -1 below every tier) and who approves it. */
export const approvalTierOf = (
  tiers: ReadonlyArray<ApprovalTier>,
  amount: number
): { readonly index: number; readonly approvers: RequiredApprovers } => {
  const index = tiers.findLastIndex((t) => amount >= t.minAmount)
  const tier = tiers[index]
  return tier === undefined
    ? { index, approvers: DEFAULT_APPROVERS }
    : {
        index,
        approvers: { required: tier.approvals, roles: [...tier.roles], requireOwner: tier.requireOwner === true }
      }
}

/** Where a team's approval chain is wrong, for a 400 naming the field. */
export interface ApprovalRulesProblem {
  readonly field: string
  readonly message: string
}

/**
 * Checks tiers against the team's members (one role per member): tiers in strictly increasing `minAmount`, no role
 * listed twice, `requireOwner` only with the owner role, and no quorum larger than the members holding its roles.
 */
export const checkApprovalRules = (
  tiers: ReadonlyArray<ApprovalTier>,
  memberRoles: ReadonlyArray<Role>
): ApprovalRulesProblem | undefined => {
  for (const [i, tier] of tiers.entries()) {
    const previous = tiers[i - 1]
    if (previous !== undefined && !(tier.minAmount > previous.minAmount)) {
      return {
        field: `tiers[${i}].minAmount`,
        message: `tiers must be in strictly increasing minAmount: ${tier.minAmount} follows ${previous.minAmount}`
      }
    }
    if (new Set(tier.roles).size !== tier.roles.length) {
      return { field: `tiers[${i}].roles`, message: "a role is listed more than once" }
    }
    if (tier.requireOwner === true && !tier.roles.includes("owner")) {
      return { field: `tiers[${i}].roles`, message: 'requireOwner needs "owner" among the roles' }
    }
    const eligible = memberRoles.filter((role) => tier.roles.includes(role)).length
    if (tier.approvals > eligible) {
      return {
        field: `tiers[${i}].approvals`,
        message: `a quorum of ${tier.approvals} is larger than the team's ${eligible} eligible members (${tier.roles.join(", ")})`
      }
    }
  }
  return undefined
}

/** One member's decision on an approval. */
export const ApprovalStep = Schema.Struct({
  userId: Schema.String.annotate({
    description: "The member who decided (a user id, a UUID).",
    examples: [EXAMPLE_ID]
  }),
  /** The member's role when they decided. */
  role: Role.annotate({ description: "The member's team role when they decided.", examples: ["admin"] }),
  decision: Schema.Literals(["approved", "denied"]).annotate({ description: "What the member decided." }),
  note: Schema.NullOr(Schema.String).annotate({ description: "The member's note; null when they left none." }),
  decidedAt: Schema.String.annotate({
    description: "When the member decided (ISO 8601, UTC).",
    examples: ["2026-03-01T12:00:00.000Z"]
  })
})

/** One member's decision on an approval. */
export type ApprovalStep = typeof ApprovalStep.Type

/** What an approval needs and what it has received, as clients see it. */
export const ApprovalProgress = Schema.Struct({
  ...RequiredApprovers.fields,
  /** Distinct members who approved so far. */
  received: Schema.Int.annotate({ description: "How many distinct members approved so far.", examples: [0] }),
  /** Every step, in the order recorded. */
  decisions: Schema.Array(ApprovalStep).annotate({ description: "Every member's step, in the order recorded." })
})

/** What an approval needs and what it has received. */
export type ApprovalProgress = typeof ApprovalProgress.Type

/** Why a member's step was refused. */
export type StepRefusal =
  /** The member's role is not among the approval's roles. */
  | "not_eligible"
  /** The member already decided this approval. */
  | "already_decided"
  /** The step would complete the quorum without the owner the tier requires. */
  | "owner_required"
  /** The step would complete the quorum with the key's creator as its only approver. */
  | "separation_of_duties"

/** What a member's step does to a pending approval. */
export type StepOutcome =
  | { readonly _tag: "refused"; readonly reason: StepRefusal; readonly message: string }
  | { readonly _tag: "denied" }
  | { readonly _tag: "recorded"; readonly received: number }
  | { readonly _tag: "quorum_reached"; readonly received: number }

/**
 * The quorum rule, pure: a deny by an eligible member denies at once; an approval counts once per member, and the
 * approval that fills the quorum must leave it holding the owner when the tier requires one, and someone besides
 * `separateFrom` (the key's creator, above the first tier) when set. The last slot is kept for them, so a quorum is
 * never reached without them and never with fewer distinct eligible members than required.
 */
export const stepOutcome = (
  approval: {
    readonly approvers: RequiredApprovers
    readonly decisions: ReadonlyArray<Pick<ApprovalStep, "userId" | "role" | "decision">>
    readonly separateFrom: string | null
  },
  step: { readonly userId: string; readonly role: Role; readonly decision: "approved" | "denied" }
): StepOutcome => {
  const { approvers } = approval
  if (!approvers.roles.includes(step.role)) {
    return {
      _tag: "refused",
      reason: "not_eligible",
      message: `only members with role ${approvers.roles.join(" or ")} decide this approval`
    }
  }
  if (approval.decisions.some((d) => d.userId === step.userId)) {
    return { _tag: "refused", reason: "already_decided", message: "this member has already decided this approval" }
  }
  if (step.decision === "denied") return { _tag: "denied" }
  const approvals = [...approval.decisions.filter((d) => d.decision === "approved"), step]
  const received = approvals.length
  if (received < approvers.required) return { _tag: "recorded", received }
  if (approvers.requireOwner && !approvals.some((d) => d.role === "owner")) {
    return {
      _tag: "refused",
      reason: "owner_required",
      message: "the last approval of this request must come from the team owner"
    }
  }
  if (approval.separateFrom !== null && approvals.every((d) => d.userId === approval.separateFrom)) {
    return {
      _tag: "refused",
      reason: "separation_of_duties",
      message: "the member who created the spending key cannot be the only approver of this request"
    }
  }
  return { _tag: "quorum_reached", received }
}

/** The progress of an approval needing `approvers`, from its recorded steps. */
export const approvalProgress = (
  approvers: RequiredApprovers,
  decisions: ReadonlyArray<ApprovalStep>
): ApprovalProgress => ({
  ...approvers,
  received: decisions.filter((d) => d.decision === "approved").length,
  decisions
})
