import { CHAT_EVENTS, type ChatApprovalMessage, ChatMessagesRepo } from "@svc/domain"
import { Effect, HashMap, Layer, Ref } from "effect"
import { EventOutboxMemory, PublishedEvents } from "../platform/index.ts"
import { MemoryStore } from "../shared/index.ts"

const CHAT_TYPES: ReadonlySet<string> = new Set(CHAT_EVENTS)

/** ChatMessagesRepo over the in-memory store, fed from the in-memory outbox's published events. */
export const ChatMessagesRepoMemory = Layer.effect(
  ChatMessagesRepo,
  Effect.gen(function* () {
    const store = yield* MemoryStore
    const published = yield* PublishedEvents
    const taken = yield* store.table<ReadonlySet<string>>(new Set())
    const rows = yield* store.table(HashMap.empty<string, ChatApprovalMessage>())
    const change = (approvalId: string, f: (m: ChatApprovalMessage) => ChatApprovalMessage) =>
      store.atomically(Ref.update(rows, (map) => HashMap.modify(map, approvalId, f)))
    return ChatMessagesRepo.of({
      lockUntakenEvents: (limit) =>
        Effect.gen(function* () {
          const done = yield* Ref.get(taken)
          return (yield* Ref.get(published)).filter((e) => CHAT_TYPES.has(e.type) && !done.has(e.id)).slice(0, limit)
        }),
      markTaken: (ids) => store.atomically(Ref.update(taken, (done) => new Set([...done, ...ids]))),
      insert: (message) =>
        store.atomically(
          Ref.update(rows, (map) =>
            HashMap.has(map, message.approvalId) ? map : HashMap.set(map, message.approvalId, message)
          )
        ),
      markChanged: (approvalId, at) =>
        change(approvalId, (m) => ({
          ...m,
          revision: m.revision + 1,
          ...(m.status === "posted" ? { status: "to_update" as const, nextAttemptAt: at } : {}),
          updatedAt: at
        })),
      claimDue: ({ now, leaseUntil, limit }) =>
        store.atomically(
          Ref.modify(rows, (map) => {
            const due = Array.from(HashMap.values(map))
              .filter((m) => (m.status === "to_post" || m.status === "to_update") && m.nextAttemptAt <= now)
              .toSorted(
                (a, b) => a.nextAttemptAt.localeCompare(b.nextAttemptAt) || a.approvalId.localeCompare(b.approvalId)
              )
              .slice(0, limit)
              .map((m) => ({ ...m, attempts: m.attempts + 1, nextAttemptAt: leaseUntil }))
            return [due, due.reduce((acc, m) => HashMap.set(acc, m.approvalId, m), map)] as const
          })
        ),
      record: (claimed, outcome, at) =>
        change(claimed.approvalId, (m) =>
          outcome._tag === "Shown"
            ? {
                ...m,
                ts: outcome.ts,
                status:
                  m.status === "failed"
                    ? "failed"
                    : m.revision !== claimed.revision
                      ? "to_update"
                      : outcome.decided
                        ? "closed"
                        : "posted",
                nextAttemptAt: at,
                attempts: 0,
                lastError: null,
                updatedAt: at
              }
            : {
                ...m,
                status: outcome.retryAt === null ? "failed" : m.status,
                nextAttemptAt: outcome.retryAt ?? m.nextAttemptAt,
                lastError: outcome.error,
                updatedAt: at
              }
        ),
      abandonTeam: (teamId, reason, at) =>
        store.atomically(
          Ref.update(rows, (map) =>
            HashMap.map(map, (m) =>
              m.teamId === teamId && (m.status === "to_post" || m.status === "posted" || m.status === "to_update")
                ? { ...m, status: "failed" as const, lastError: reason, updatedAt: at }
                : m
            )
          )
        ),
      find: (approvalId) => Ref.get(rows).pipe(Effect.map((map) => HashMap.get(map, approvalId)))
    })
  })
).pipe(Layer.provide(EventOutboxMemory))
