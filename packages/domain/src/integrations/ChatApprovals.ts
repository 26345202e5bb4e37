import { Clock, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { AgentKeysRepo } from "../access/index.ts"
import { type Approval, ApprovalId, ApprovalsRepo } from "../approvals/index.ts"
import { displayNameOf, UsersRepo } from "../identity/index.ts"
import {
  doublingDelayMs,
  isoOfMillis,
  nowIso,
  type PersistenceUnavailable,
  SealedSecrets,
  type TeamId,
  Transactor,
  UserId
} from "../shared/index.ts"
import { ChatApp } from "./ChatApp.ts"
import { chatApprovalIdOf, chatApprovalRequestOf } from "./ChatApprovalEvents.ts"
import { approvalMessageTag, type ChatApprovalMessage, chatApprovalContent } from "./ChatApprovalMessage.ts"
import { type ChatAttemptOutcome, ChatMessagesRepo } from "./ChatMessagesRepo.ts"
import { ChatMessaging, type ChatMessagingFailed, isTransientChatError } from "./ChatMessaging.ts"
import { ChatIntegrationsRepo } from "./ChatPorts.ts"

/** How approval messages are posted: attempts before giving up, back-off bounds, the claim's lease and batch size. */
export interface ChatPostingPolicy {
  readonly maxAttempts: number
  readonly baseDelayMs: number
  readonly maxDelayMs: number
  readonly leaseMs: number
  readonly batchSize: number
}

/** The posting policy in force (defaults: 8 attempts, 1 s doubling up to 10 min, 60 s lease, 20 a batch). */
export const ChatPostingConfig = Context.Reference<ChatPostingPolicy>("@svc/domain/ChatPostingConfig", {
  defaultValue: () => ({ maxAttempts: 8, baseDelayMs: 1_000, maxDelayMs: 600_000, leaseMs: 60_000, batchSize: 20 })
})

/** When a transient failure of attempt `attempts` is retried, or null to give up: doubling, capped, at least `retryAfterMs`. */
export const chatRetryAt = (
  policy: ChatPostingPolicy,
  attempts: number,
  retryAfterMs: number | null,
  nowMs: number
): string | null => {
  if (attempts >= policy.maxAttempts) return null
  return isoOfMillis(nowMs + Math.max(doublingDelayMs(policy, attempts), retryAfterMs ?? 0))
}

/** How many outbox events one chat pass takes. */
export const CHAT_EVENT_BATCH = 100

/**
 * Approvals in the team's chat channel. `fromEvents` turns approval requests of teams with a chat integration into
 * one stored message each, and notes the changes of those approvals, taking each outbox event exactly once in one
 * transaction however often passes run. `postDue` posts or updates the due messages on the platform.
 */
export class ChatApprovals extends Context.Service<
  ChatApprovals,
  {
    /** One pass over the outbox events not yet taken; answers how many it took. */
    readonly fromEvents: Effect.Effect<number, PersistenceUnavailable>
    /**
     * The worker's step: claims the due messages and posts (or, once posted, updates) each as its approval now
     * stands. A message attempted before is first looked for in the channel by its tag, so a post whose recording was
     * lost is never made twice. Answers how many it claimed.
     */
    readonly postDue: Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/ChatApprovals") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* ChatMessagesRepo
    const integrations = yield* ChatIntegrationsRepo
    const messaging = yield* ChatMessaging
    const sealed = yield* SealedSecrets
    const approvals = yield* ApprovalsRepo
    const keys = yield* AgentKeysRepo
    const users = yield* UsersRepo
    const transactor = yield* Transactor
    const policy = yield* ChatPostingConfig
    const app = yield* ChatApp

    const requesterOf = (teamId: TeamId, keyId: string | null) =>
      Effect.gen(function* () {
        if (keyId === null) return "an agent"
        const named = [...(yield* keys.listSpendingKeys(teamId)), ...(yield* keys.listTeamKeys(teamId))].find(
          (k) => k.id === keyId
        )
        return named === undefined ? `key ${keyId}` : `${named.name} (agent key)`
      })

    const fromEvents = transactor
      .withTransaction(
        Effect.gen(function* () {
          const events = yield* repo.lockUntakenEvents(CHAT_EVENT_BATCH)
          if (events.length === 0) return 0
          const now = yield* nowIso
          for (const event of events) {
            const request = chatApprovalRequestOf(event)
            if (Option.isSome(request)) {
              const integration = yield* integrations.forTeam(event.teamId)
              const approvalId = request.value.approvalId
              const approval = Schema.is(ApprovalId)(approvalId)
                ? yield* approvals.find(event.teamId, approvalId)
                : Option.none<Approval>()
              if (Option.isNone(integration) || Option.isNone(approval)) continue
              yield* repo.insert({
                approvalId: approval.value.id,
                teamId: event.teamId,
                channelId: integration.value.channelId,
                summary: {
                  ...request.value.summary,
                  requester: yield* requesterOf(event.teamId, approval.value.spendingKeyId)
                },
                status: "to_post",
                ts: null,
                revision: 0,
                attempts: 0,
                nextAttemptAt: now,
                lastError: null,
                createdAt: now,
                updatedAt: now
              })
              continue
            }
            const changed = chatApprovalIdOf(event)
            if (Option.isSome(changed) && Schema.is(ApprovalId)(changed.value)) {
              yield* repo.markChanged(changed.value, now)
            }
          }
          yield* repo.markTaken(events.map((e) => e.id))
          return events.length
        })
      )
      .pipe(Effect.withSpan("ChatApprovals.fromEvents"))

    const nameOf = (userId: string | null) =>
      userId === null || !Schema.is(UserId)(userId)
        ? Effect.succeed(null)
        : Effect.map(users.findById(userId), (u) => (Option.isSome(u) ? displayNameOf(u.value) : null))

    const failed = (message: ChatApprovalMessage, error: ChatMessagingFailed, nowMs: number): ChatAttemptOutcome => ({
      _tag: "Failed",
      error: `the chat platform answered ${error.code}`,
      retryAt: isTransientChatError(error) ? chatRetryAt(policy, message.attempts, error.retryAfterMs, nowMs) : null
    })

    const attempt = (message: ChatApprovalMessage) =>
      Effect.gen(function* () {
        const giveUp = (error: string): ChatAttemptOutcome => ({ _tag: "Failed", error, retryAt: null })
        const integration = yield* integrations.forTeam(message.teamId)
        if (Option.isNone(integration)) return giveUp("the team's chat integration is gone")
        const opened = yield* Effect.result(sealed.open(integration.value.botToken))
        if (opened._tag === "Failure") return giveUp("the bot token cannot be opened")
        const token = Redacted.make(opened.success)
        const approval = yield* approvals.find(message.teamId, message.approvalId)
        if (Option.isNone(approval)) return giveUp("the approval is gone")
        const state = { approval: approval.value, decidedByName: yield* nameOf(approval.value.decidedBy) }
        const content = chatApprovalContent(message, state)
        const decided = approval.value.status !== "pending"
        const channel = message.channelId
        const shown: Effect.Effect<string, ChatMessagingFailed> =
          message.ts !== null
            ? Effect.as(messaging.update(token, { channel, ts: message.ts }, content), message.ts)
            : Effect.gen(function* () {
                const tag = approvalMessageTag(message.approvalId)
                const earlier = message.attempts > 1 ? yield* messaging.findTagged(token, channel, tag) : Option.none()
                if (Option.isNone(earlier)) return (yield* messaging.post(token, channel, content, tag)).ts
                if (decided) yield* messaging.update(token, { channel, ts: earlier.value.ts }, content)
                return earlier.value.ts
              })
        return yield* shown.pipe(
          Effect.map((ts): ChatAttemptOutcome => ({ _tag: "Shown", ts, decided })),
          Effect.catchTag("ChatMessagingFailed", (error) =>
            Effect.gen(function* () {
              if (error.reason === "revoked") yield* integrationLost(message.teamId, error.code)
              return failed(message, error, yield* Clock.currentTimeMillis)
            })
          )
        )
      }).pipe(
        Effect.flatMap((outcome) => Effect.flatMap(nowIso, (at) => repo.record(message, outcome, at))),
        Effect.withSpan("ChatApprovals.attempt", { attributes: { approvalId: message.approvalId } })
      )

    /** The workspace took the bot's token back: nothing more is posted for the team, which is told it lost the app. */
    const integrationLost = (teamId: TeamId, reason: string) =>
      Effect.gen(function* () {
        yield* repo.abandonTeam(teamId, `the chat integration was disconnected: ${reason}`, yield* nowIso)
        yield* app.markDisconnected(teamId, reason)
      })

    const postDue = Effect.gen(function* () {
      const nowMs = yield* Clock.currentTimeMillis
      const due = yield* repo.claimDue({
        now: isoOfMillis(nowMs),
        leaseUntil: isoOfMillis(nowMs + policy.leaseMs),
        limit: policy.batchSize
      })
      yield* Effect.forEach(due, attempt, { concurrency: 4, discard: true })
      return due.length
    }).pipe(Effect.withSpan("ChatApprovals.postDue"))

    return ChatApprovals.of({ fromEvents, postDue })
  })
  static readonly layer = Layer.effect(ChatApprovals, ChatApprovals.make)
}
