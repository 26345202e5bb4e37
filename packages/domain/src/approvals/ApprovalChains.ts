import { Context, Effect, Layer, Schema } from "effect"
import type { TeamPrincipal } from "../access/model.ts"
import { TeamsRepo } from "../identity/index.ts"
import { nowIso, type PersistenceUnavailable, type TeamId } from "../shared/index.ts"
import { type ApprovalRules, checkApprovalRules } from "./ApprovalChain.ts"
import { ApproverNotAllowed, mayDecideApprovals } from "./ApprovalRules.ts"
import { ApprovalsRepo } from "./ApprovalsRepo.ts"

/** The approval chain cannot apply: `field` names the tier field at fault. */
export class ApprovalRulesInvalid extends Schema.TaggedError<ApprovalRulesInvalid>()("ApprovalRulesInvalid", {
  field: Schema.String,
  message: Schema.String
}) {}

/** A team's approval chain: who approves requests by amount tier, set by owners and admins as a whole. */
export class ApprovalChains extends Context.Service<
  ApprovalChains,
  {
    readonly get: (teamId: TeamId) => Effect.Effect<ApprovalRules, PersistenceUnavailable>
    /**
     * Replaces the chain, all or nothing, after `checkApprovalRules` against the team's members as they are now;
     * approvals already pending keep the quorum they were made with.
     */
    readonly set: (
      principal: TeamPrincipal,
      teamId: TeamId,
      rules: ApprovalRules
    ) => Effect.Effect<ApprovalRules, ApproverNotAllowed | ApprovalRulesInvalid | PersistenceUnavailable>
  }
>()("@svc/domain/ApprovalChains") {
  static readonly make = Effect.gen(function* () {
    const approvals = yield* ApprovalsRepo
    const teams = yield* TeamsRepo

    const get = Effect.fn("ApprovalChains.get")(function* (teamId: TeamId) {
      return { tiers: yield* approvals.tiers(teamId) }
    })

    const set = Effect.fn("ApprovalChains.set")(function* (
      principal: TeamPrincipal,
      teamId: TeamId,
      rules: ApprovalRules
    ) {
      if (!mayDecideApprovals(principal.role)) {
        return yield* new ApproverNotAllowed({ message: "only team owners and admins set the approval chain" })
      }
      const problem = checkApprovalRules(rules.tiers, yield* teams.memberRoles(teamId))
      if (problem !== undefined) return yield* new ApprovalRulesInvalid(problem)
      yield* approvals.setTiers(teamId, rules.tiers, principal.userId, yield* nowIso)
      return rules
    })

    return ApprovalChains.of({ get, set })
  })
  static readonly layer = Layer.effect(ApprovalChains, ApprovalChains.make)
}
