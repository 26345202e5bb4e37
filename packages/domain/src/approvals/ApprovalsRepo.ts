import { Context, type Effect, type Option } from "effect"
import type { PersistenceUnavailable, TeamId } from "../shared/model.ts"
import type { Approval, ApprovalDecision, ApprovalId } from "./Approval.ts"
import type { ApprovalStep, ApprovalTier } from "./ApprovalChain.ts"

/** Storage of approvals: a pending approval is decided at most once, and a decided one never changes. */
export class ApprovalsRepo extends Context.Service<
  ApprovalsRepo,
  {
    readonly insert: (approval: Approval) => Effect.Effect<void, PersistenceUnavailable>
    readonly find: (teamId: TeamId, id: ApprovalId) => Effect.Effect<Option.Option<Approval>, PersistenceUnavailable>
    /**
     * Ends the approval if it is still pending, under a lock on it, so that of concurrent decisions exactly one wins;
     * none when it was no longer pending.
     */
    readonly decide: (
      teamId: TeamId,
      id: ApprovalId,
      decision: ApprovalDecision
    ) => Effect.Effect<Option.Option<Approval>, PersistenceUnavailable>
    /**
     * The approval, with its steps, if it is still pending, locked until the transaction ends: steps and decisions of
     * other transactions on it queue behind this one. None when it is no longer pending.
     */
    readonly lockPending: (
      teamId: TeamId,
      id: ApprovalId
    ) => Effect.Effect<Option.Option<Approval>, PersistenceUnavailable>
    /** Appends a member's step to an approval; a member has at most one step per approval, and steps never change. */
    readonly insertStep: (
      teamId: TeamId,
      id: ApprovalId,
      step: ApprovalStep
    ) => Effect.Effect<void, PersistenceUnavailable>
    /** The team's approval tiers, in increasing `minAmount` ([] when none are set). */
    readonly tiers: (teamId: TeamId) => Effect.Effect<ReadonlyArray<ApprovalTier>, PersistenceUnavailable>
    /** Replaces the team's approval tiers as a whole. */
    readonly setTiers: (
      teamId: TeamId,
      tiers: ReadonlyArray<ApprovalTier>,
      updatedBy: string,
      updatedAt: string
    ) => Effect.Effect<void, PersistenceUnavailable>
    /** How many approvals of every team are still pending (for operators: a gauge, not a business answer). */
    readonly countPending: Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/ApprovalsRepo") {}
