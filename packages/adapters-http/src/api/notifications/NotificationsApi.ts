import { NotificationStatus, NotificationView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  PlatformAuth,
  RequiredScope,
  UuidParam
} from "../shared/index.ts"

/** SPEC.md's Notification. */
export const NotificationResponse = NotificationView

/**
 * Notification statuses: comma-separated (`unread,read`) or the parameter repeated as the twin's clients send it
 * (`?status=unread&status=read`).
 */
export const StatusFilter = Schema.Union([
  Schema.String.check(
    Schema.isPattern(/^(unread|read|archived)(,(unread|read|archived))*$/u, {
      message: "expected unread, read or archived, comma-separated"
    })
  ),
  Schema.Array(NotificationStatus).check(Schema.isMaxLength(3, { message: "expected at most 3 statuses" }))
])

const StatusRequest = Schema.Struct({ status: NotificationStatus })
const errors = [...CommonErrors, Forbidden] as const

/** The caller's notifications: session, OAuth or generic API key, by scope. */
export class NotificationsApi extends HttpApiGroup.make("notifications")
  .add(
    HttpApiEndpoint.get("list", "/notifications", {
      query: { ...ListQuery, status: Schema.optionalKey(StatusFilter) },
      success: ListOf(NotificationResponse),
      error: errors
    })
      .annotate(RequiredScope, "notifications.read")
      .annotate(OpenApi.Summary, "List notifications")
      .annotate(
        OpenApi.Description,
        "The caller's notifications (the team's and their own), newest first; `status` keeps those in the given " +
          "statuses (comma-separated or repeated). The service makes them from events a member should see: an approval waiting, a transfer " +
          "received, a webhook endpoint disabled, a bank connection lost."
      ),
    HttpApiEndpoint.patch("setStatus", "/notifications/:id/status", {
      params: { id: UuidParam },
      payload: StatusRequest,
      success: Schema.Struct({ data: NotificationResponse }),
      error: [...errors, NotFound]
    })
      .annotate(RequiredScope, "notifications.write")
      .annotate(OpenApi.Summary, "Set a notification's status"),
    HttpApiEndpoint.post("setAllStatus", "/notifications/update-all-status", {
      payload: StatusRequest,
      success: Schema.Struct({ data: Schema.Array(NotificationResponse) }),
      error: errors
    })
      .annotate(RequiredScope, "notifications.write")
      .annotate(OpenApi.Summary, "Set the status of all notifications")
      .annotate(
        OpenApi.Description,
        "Moves every notification of the caller to `status` at once (all or none); answers those it changed."
      )
  )
  .middleware(PlatformAuth) {}
