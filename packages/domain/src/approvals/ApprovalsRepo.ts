import { Context, type Effect, type Option } from "effect"
import type { PersistenceUnavailable, TeamId } from "../shared/index.ts"
import type { Approval, ApprovalDecision, ApprovalId } from "./Approval.ts"

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
    /** How many approvals of every team are still pending (for operators: a gauge, not a business answer). */
    readonly countPending: Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/ApprovalsRepo") {}
