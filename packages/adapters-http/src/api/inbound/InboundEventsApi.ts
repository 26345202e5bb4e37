import { InboundEventStatus, InboundEventView } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Conflict,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  SessionAuth,
  UuidParam
} from "../shared/index.ts"

/** A stored provider event as its team reviews it (never the provider's request headers). */
export const InboundEventResponse = InboundEventView

const errors = [...CommonErrors, Forbidden] as const
const id = { id: UuidParam }

/** Provider events that name the session's team, for its owners and admins: review, retry or discard parked ones. */
export class InboundEventsApi extends HttpApiGroup.make("inboundEvents")
  .add(
    HttpApiEndpoint.get("list", "/treasury/inbound-events", {
      query: { ...ListQuery, status: Schema.optionalKey(InboundEventStatus) },
      success: ListOf(InboundEventResponse),
      error: errors
    })
      .annotate(OpenApi.Summary, "List inbound provider events")
      .annotate(
        OpenApi.Description,
        "The provider events (deposits, billing, inbox e-mails) that name the team, newest received first, with one " +
          "`status` (default `parked`: failed too often or for good, waiting for a decision)."
      ),
    HttpApiEndpoint.get("get", "/treasury/inbound-events/:id", {
      params: id,
      success: InboundEventResponse,
      error: [...errors, NotFound]
    }).annotate(OpenApi.Summary, "Get an inbound provider event"),
    HttpApiEndpoint.post("retry", "/treasury/inbound-events/:id/retry", {
      params: id,
      success: InboundEventResponse,
      error: [...errors, NotFound, Conflict]
    })
      .annotate(OpenApi.Summary, "Retry a parked inbound event")
      .annotate(
        OpenApi.Description,
        "Moves a parked event back to `pending`, due now with its attempts reset, so the worker processes it again " +
          "(processing is idempotent). An event already pending is answered as is; a processed or discarded one is " +
          "409 `inbound_event_not_parked`."
      ),
    HttpApiEndpoint.post("discard", "/treasury/inbound-events/:id/discard", {
      params: id,
      success: InboundEventResponse,
      error: [...errors, NotFound, Conflict]
    })
      .annotate(OpenApi.Summary, "Discard a parked inbound event")
      .annotate(
        OpenApi.Description,
        "Marks a parked event `discarded` (who and when are kept, for audit); it is never processed. An event " +
          "already discarded is answered as is; a pending or processed one is 409 `inbound_event_not_parked`."
      )
  )
  .middleware(SessionAuth) {}
