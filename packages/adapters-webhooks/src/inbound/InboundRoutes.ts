import { Effect } from "effect"
import { HttpRouter } from "effect/http"
import { InboundIntake } from "./InboundIntake.ts"
import { ChatInteractions, InboundEndpoints } from "./verify/Endpoints.ts"

/** The raw POST routes of every inbound provider endpoint (and the chat interactions callback), outside the HttpApi. */
export const InboundWebhookRoutes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const intake = yield* InboundIntake
    for (const endpoint of [...InboundEndpoints, ChatInteractions]) {
      yield* router.add("POST", endpoint.path as `/${string}`, (request) => intake.handle(endpoint, request))
    }
  })
)
