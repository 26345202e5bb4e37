import { Context, Effect, Layer, Option, Schema } from "effect"
import type { DomainEvent } from "../platform/index.ts"
import { newIdText, nowIso, type PageRequest, type PersistenceUnavailable, Transactor } from "../shared/index.ts"
import type { TeamId, UserId } from "../shared/model.ts"
import { type Notification, type NotificationStatus, notificationOfEvent } from "./Notification.ts"

/** No notification with that id is visible to the reader (another team's, another member's, or none at all). */
export class NotificationNotFound extends Schema.TaggedError<NotificationNotFound>()("NotificationNotFound", {
  id: Schema.String
}) {}

/** Who reads notifications: a member of a team sees the team's notifications and their own. */
export interface NotificationReader {
  readonly teamId: TeamId
  readonly userId: UserId
}

/** Which notifications a list answers: all, or those in one of `statuses`. */
export interface NotificationFilter {
  readonly statuses: ReadonlyArray<NotificationStatus> | null
}

/** Storage of notifications, and the outbox events not yet turned into notifications. */
export class NotificationsRepo extends Context.Service<
  NotificationsRepo,
  {
    /** The reader's notifications (the team's and their own), newest first, up to `page.limit + 1`. */
    readonly list: (
      reader: NotificationReader,
      filter: NotificationFilter,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<Notification>, PersistenceUnavailable>
    /** Sets the status of one of the reader's notifications; none when the reader sees no such notification. */
    readonly setStatus: (
      reader: NotificationReader,
      id: string,
      status: NotificationStatus
    ) => Effect.Effect<Option.Option<Notification>, PersistenceUnavailable>
    /** Sets the status of every notification of the reader in one write; answers those it changed, newest first. */
    readonly setStatusAll: (
      reader: NotificationReader,
      status: NotificationStatus
    ) => Effect.Effect<ReadonlyArray<Notification>, PersistenceUnavailable>
    /**
     * Up to `limit` events of the notifying types (`NOTIFYING_EVENTS`), oldest first, published and not yet taken by a
     * notification pass, locked until the end of the transaction (others skip them). They outlive the outbox's purge.
     */
    readonly lockUnnotifiedEvents: (limit: number) => Effect.Effect<ReadonlyArray<DomainEvent>, PersistenceUnavailable>
    /** Stores notifications; one made from an event already notified is skipped. */
    readonly insert: (...notifications: ReadonlyArray<Notification>) => Effect.Effect<void, PersistenceUnavailable>
    /** Records that these events have been turned into notifications (they are not taken again). */
    readonly markNotified: (eventIds: ReadonlyArray<string>, at: string) => Effect.Effect<void, PersistenceUnavailable>
  }
>()("@svc/domain/NotificationsRepo") {}

/** How many outbox events one notification pass takes. */
export const NOTIFICATION_BATCH = 100

/** Notifications: what members read and mark, and the pass that makes them from outbox events. */
export class Notifications extends Context.Service<
  Notifications,
  {
    readonly list: (
      reader: NotificationReader,
      filter: NotificationFilter,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<Notification>, PersistenceUnavailable>
    readonly setStatus: (
      reader: NotificationReader,
      id: string,
      status: NotificationStatus
    ) => Effect.Effect<Notification, NotificationNotFound | PersistenceUnavailable>
    /** Moves every notification of the reader to `status` at once (all or none); answers those it changed. */
    readonly setStatusAll: (
      reader: NotificationReader,
      status: NotificationStatus
    ) => Effect.Effect<ReadonlyArray<Notification>, PersistenceUnavailable>
    /**
     * One pass: takes the outbox events not yet taken and stores the notification each one becomes, in one
     * transaction, so each event gives its notification exactly once however often passes run, concurrently or after
     * a crash; answers how many events it took.
     */
    readonly fromEvents: Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/Notifications") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* NotificationsRepo
    const transactor = yield* Transactor

    const setStatus = Effect.fn("Notifications.setStatus")(function* (
      reader: NotificationReader,
      id: string,
      status: NotificationStatus
    ) {
      const updated = yield* repo.setStatus(reader, id, status)
      return yield* Option.match(updated, {
        onNone: () => Effect.fail(new NotificationNotFound({ id })),
        onSome: Effect.succeed
      })
    })

    const fromEvents = transactor
      .withTransaction(
        Effect.gen(function* () {
          const events = yield* repo.lockUnnotifiedEvents(NOTIFICATION_BATCH)
          if (events.length === 0) return 0
          const now = yield* nowIso
          const notifications: Array<Notification> = []
          for (const event of events) {
            const draft = notificationOfEvent(event)
            if (draft === null) continue
            notifications.push({
              id: yield* newIdText,
              teamId: event.teamId,
              userId: null,
              type: draft.type,
              priority: draft.priority,
              source: "system",
              status: "unread",
              metadata: draft.metadata,
              lastUsedAt: null,
              eventId: event.id,
              createdAt: event.createdAt
            })
          }
          yield* repo.insert(...notifications)
          yield* repo.markNotified(
            events.map((e) => e.id),
            now
          )
          return events.length
        })
      )
      .pipe(Effect.withSpan("Notifications.fromEvents"))

    return Notifications.of({
      list: Effect.fn("Notifications.list")((reader, filter, page) => repo.list(reader, filter, page)),
      setStatus,
      setStatusAll: Effect.fn("Notifications.setStatusAll")((reader, status) => repo.setStatusAll(reader, status)),
      fromEvents
    })
  })
  static readonly layer = Layer.effect(Notifications, Notifications.make)
}
