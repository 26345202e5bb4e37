import { Context, type Effect, type Option } from "effect"
import type { ApprovalId } from "../approvals/model.ts"
import type { DomainEvent } from "../platform/index.ts"
import type { PersistenceUnavailable, TeamId } from "../shared/model.ts"
import type { ChatApprovalMessage } from "./ChatApprovalMessage.ts"

/** How a claimed post or update ended. */
export type ChatAttemptOutcome =
  /** The message is on the platform as `ts`, showing the approval as pending (`decided: false`) or final. */
  | { readonly _tag: "Shown"; readonly ts: string; readonly decided: boolean }
  /** It failed: retried at `retryAt`, or given up (`failed`) when that is null. */
  | { readonly _tag: "Failed"; readonly error: string; readonly retryAt: string | null }

/**
 * Storage of the approvals' chat messages, one per approval, and of the outbox events the chat pass has not taken yet;
 * a claim never hands the same due message to two workers at once.
 */
export class ChatMessagesRepo extends Context.Service<
  ChatMessagesRepo,
  {
    /**
     * Up to `limit` events of `CHAT_EVENTS` (ChatApprovalEvents), oldest first, published and not yet taken by a chat pass, locked until the
     * transaction ends (other passes skip them).
     */
    readonly lockUntakenEvents: (limit: number) => Effect.Effect<ReadonlyArray<DomainEvent>, PersistenceUnavailable>
    /** Records that these events were taken (no pass takes them again). */
    readonly markTaken: (eventIds: ReadonlyArray<string>) => Effect.Effect<void, PersistenceUnavailable>
    /** Stores the message of an approval, due now, unless the approval has one already. */
    readonly insert: (message: ChatApprovalMessage) => Effect.Effect<void, PersistenceUnavailable>
    /**
     * Notes that the approval changed: its message's revision moves on, and a message shown as pending is due for an
     * update at `at`. A message in flight sees the new revision when its outcome is recorded.
     */
    readonly markChanged: (approvalId: ApprovalId, at: string) => Effect.Effect<void, PersistenceUnavailable>
    /**
     * Takes up to `limit` messages due at `now` for a post or an update (skipping those another worker holds), counts
     * an attempt and holds them until `leaseUntil`.
     */
    readonly claimDue: (input: {
      readonly now: string
      readonly leaseUntil: string
      readonly limit: number
    }) => Effect.Effect<ReadonlyArray<ChatApprovalMessage>, PersistenceUnavailable>
    /**
     * Records the outcome of the attempt on `claimed`. A message shown while its approval changed after the claim
     * (a newer revision) is due for an update at once.
     */
    readonly record: (
      claimed: ChatApprovalMessage,
      outcome: ChatAttemptOutcome,
      at: string
    ) => Effect.Effect<void, PersistenceUnavailable>
    /** Gives up every message of the team still to post or update (its integration is gone). */
    readonly abandonTeam: (teamId: TeamId, reason: string, at: string) => Effect.Effect<void, PersistenceUnavailable>
    readonly find: (approvalId: ApprovalId) => Effect.Effect<Option.Option<ChatApprovalMessage>, PersistenceUnavailable>
  }
>()("@svc/domain/ChatMessagesRepo") {}
