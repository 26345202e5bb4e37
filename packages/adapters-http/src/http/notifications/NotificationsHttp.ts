import { type NotificationStatus, Notifications, notificationView, toPage } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { notFound } from "../../api/shared/index.ts"
import { listPaging, orServiceUnavailable, principalTeam } from "../shared/index.ts"

const reader = Effect.map(principalTeam, ({ principal, teamId }) => ({ teamId, userId: principal.userId }))

export const NotificationsHttp = HttpApiBuilder.group(Api, "notifications", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, signedPage } = yield* listPaging
    const notifications = yield* Notifications
    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const who = yield* reader
          const statuses =
            query.status === undefined
              ? null
              : [
                  ...new Set(
                    (typeof query.status === "string"
                      ? query.status.split(",")
                      : query.status) as Array<NotificationStatus>
                  )
                ]
          const scope = `notifications:${who.teamId}:${who.userId}:${statuses?.join(",") ?? "all"}`
          const page = yield* pageOf(scope, query)
          const rows = yield* notifications.list(who, { statuses }, page)
          return yield* signedPage(scope, toPage(page, rows, notificationView))
        }).pipe(orServiceUnavailable)
      )
      .handle("setStatus", ({ params, payload }) =>
        Effect.gen(function* () {
          const updated = yield* notifications.setStatus(yield* reader, params.id, payload.status)
          return { data: notificationView(updated) }
        }).pipe(
          Effect.catchTag("NotificationNotFound", () => Effect.fail(notFound(`no notification ${params.id}`))),
          orServiceUnavailable
        )
      )
      .handle("setAllStatus", ({ payload }) =>
        Effect.gen(function* () {
          const changed = yield* notifications.setStatusAll(yield* reader, payload.status)
          return { data: changed.map(notificationView) }
        }).pipe(orServiceUnavailable)
      )
  })
)
