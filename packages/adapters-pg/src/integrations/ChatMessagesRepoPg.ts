import { ChatApprovalMessage, ChatMessagesRepo, DomainEvent } from "@svc/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeFirst, decodeRows, orUnavailable } from "../shared/index.ts"

const DomainEventRow = Schema.Struct({ ...DomainEvent.fields, data: Schema.fromJsonString(DomainEvent.fields.data) })

const MessageRow = Schema.Struct({
  ...ChatApprovalMessage.fields,
  summary: Schema.fromJsonString(ChatApprovalMessage.fields.summary)
})

const COLUMNS = `approval_id, team_id, channel_id, summary::text AS summary, status, ts, revision, attempts,
  next_attempt_at, last_error, created_at, updated_at`

/**
 * ChatMessagesRepo on Postgres: the events to take are the rows the outbox trigger queued (chat types of teams with an
 * integration), taken with FOR UPDATE SKIP LOCKED and deleted in the pass's transaction; due messages are claimed the
 * same way, the claim moving `next_attempt_at` to the lease's end.
 */
export const ChatMessagesRepoPg = Layer.effect(
  ChatMessagesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    return ChatMessagesRepo.of({
      lockUntakenEvents: (limit) =>
        sql`
          SELECT event_id AS id, team_id, mode, type, data::text AS data, created_at FROM chat_event_queue
          ORDER BY created_at, event_id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED`.pipe(
          orUnavailable("chatMessages.lockUntakenEvents"),
          Effect.flatMap(decodeRows(DomainEventRow, "chatMessages.lockUntakenEvents"))
        ),
      markTaken: (ids) =>
        ids.length === 0
          ? Effect.void
          : sql`DELETE FROM chat_event_queue WHERE ${sql.in("event_id", ids)}`.pipe(
              Effect.asVoid,
              orUnavailable("chatMessages.markTaken")
            ),
      insert: (m) =>
        sql`
          INSERT INTO chat_messages (approval_id, team_id, channel_id, summary, status, ts, revision, attempts,
            next_attempt_at, last_error, created_at, updated_at)
          VALUES (${m.approvalId}, ${m.teamId}, ${m.channelId}, ${JSON.stringify(m.summary)}::jsonb, ${m.status},
            ${m.ts}, ${m.revision}, ${m.attempts}, ${m.nextAttemptAt}, ${m.lastError}, ${m.createdAt}, ${m.updatedAt})
          ON CONFLICT (approval_id) DO NOTHING`.pipe(Effect.asVoid, orUnavailable("chatMessages.insert")),
      markChanged: (approvalId, at) =>
        sql`
          UPDATE chat_messages SET
            revision = revision + 1,
            status = CASE WHEN status = 'posted' THEN 'to_update' ELSE status END,
            next_attempt_at = CASE WHEN status = 'posted' THEN ${at}::timestamptz ELSE next_attempt_at END,
            updated_at = ${at}
          WHERE approval_id = ${approvalId}`.pipe(Effect.asVoid, orUnavailable("chatMessages.markChanged")),
      claimDue: ({ now, leaseUntil, limit }) =>
        sql`
          UPDATE chat_messages SET attempts = attempts + 1, next_attempt_at = ${leaseUntil}
          WHERE approval_id IN (
            SELECT approval_id FROM chat_messages
            WHERE status IN ('to_post', 'to_update') AND next_attempt_at <= ${now}
            ORDER BY next_attempt_at, approval_id
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED)
          RETURNING ${columns}`.pipe(
          orUnavailable("chatMessages.claimDue"),
          Effect.flatMap(decodeRows(MessageRow, "chatMessages.claimDue"))
        ),
      record: (claimed, outcome, at) =>
        outcome._tag === "Shown"
          ? sql`
              UPDATE chat_messages SET
                ts = ${outcome.ts},
                status = CASE
                  WHEN status = 'failed' THEN 'failed'
                  WHEN revision <> ${claimed.revision} THEN 'to_update'
                  WHEN ${outcome.decided} THEN 'closed'
                  ELSE 'posted' END,
                next_attempt_at = ${at},
                attempts = 0,
                last_error = NULL,
                updated_at = ${at}
              WHERE approval_id = ${claimed.approvalId}`.pipe(Effect.asVoid, orUnavailable("chatMessages.record"))
          : sql`
              UPDATE chat_messages SET
                status = CASE WHEN ${outcome.retryAt === null} THEN 'failed' ELSE status END,
                next_attempt_at = COALESCE(${outcome.retryAt}::timestamptz, next_attempt_at),
                last_error = ${outcome.error},
                updated_at = ${at}
              WHERE approval_id = ${claimed.approvalId}`.pipe(Effect.asVoid, orUnavailable("chatMessages.record")),
      abandonTeam: (teamId, reason, at) =>
        sql`
          UPDATE chat_messages SET status = 'failed', last_error = ${reason}, updated_at = ${at}
          WHERE team_id = ${teamId} AND status IN ('to_post', 'posted', 'to_update')`.pipe(
          Effect.asVoid,
          orUnavailable("chatMessages.abandonTeam")
        ),
      find: (approvalId) =>
        sql`SELECT ${columns} FROM chat_messages WHERE approval_id = ${approvalId}`.pipe(
          orUnavailable("chatMessages.find"),
          Effect.flatMap(decodeFirst(MessageRow, "chatMessages.find"))
        )
    })
  })
)
