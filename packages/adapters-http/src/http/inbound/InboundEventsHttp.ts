import { type InboundEventNotParked, InboundReview, inboundEventView, Teams, toPage } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { CurrentUser, conflict, notFound } from "../../api/shared/index.ts"
import { currentTeamAsAdmin as adminTeamOf, listPaging, orServiceUnavailable } from "../shared/index.ts"

const notParked = (e: InboundEventNotParked) =>
  Effect.fail(conflict("inbound_event_not_parked", `inbound event ${e.id} is ${e.status}, not parked`))

export const InboundEventsHttp = HttpApiBuilder.group(Api, "inboundEvents", (handlers) =>
  Effect.gen(function* () {
    const { pageOf, signedPage } = yield* listPaging
    const review = yield* InboundReview
    const currentTeamAsAdmin = adminTeamOf(yield* Teams, "review inbound events")
    const missing = (id: string) => () => Effect.fail(notFound(`no inbound event ${id}`))

    return handlers
      .handle("list", ({ query }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          const status = query.status ?? "parked"
          const scope = `inbound-events:${team.id}:${status}`
          const page = yield* pageOf(scope, query)
          const rows = yield* review.list(team.id, status, page)
          const positioned = rows.map((event) => ({ ...event, createdAt: event.receivedAt }))
          return yield* signedPage(scope, toPage(page, positioned, inboundEventView))
        }).pipe(orServiceUnavailable)
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          return inboundEventView(yield* review.get(team.id, params.id))
        }).pipe(Effect.catchTag("InboundEventNotFound", missing(params.id)), orServiceUnavailable)
      )
      .handle("retry", ({ params }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          return inboundEventView(yield* review.retry(team.id, params.id))
        }).pipe(
          Effect.catchTags({ InboundEventNotFound: missing(params.id), InboundEventNotParked: notParked }),
          orServiceUnavailable
        )
      )
      .handle("discard", ({ params }) =>
        Effect.gen(function* () {
          const { team } = yield* currentTeamAsAdmin
          const user = yield* CurrentUser
          return inboundEventView(yield* review.discard(team.id, user.id, params.id))
        }).pipe(
          Effect.catchTags({ InboundEventNotFound: missing(params.id), InboundEventNotParked: notParked }),
          orServiceUnavailable
        )
      )
  })
)
