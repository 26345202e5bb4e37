import { Effect } from "effect"
import { HttpRouter } from "effect/http"
import { AUTH_STREAM_ENDPOINT, AuthorizationStream } from "./AuthorizationStream.ts"
import { InboundIntake } from "./InboundIntake.ts"
import { ChatInteractions, InboundEndpoints } from "./verify/Endpoints.ts"

/**
 * The raw POST routes of every inbound provider endpoint (and the chat interactions callback), outside the HttpApi:
 * the auth-stream answers its decision, every other endpoint goes through the intake.
 */
export const InboundWebhookRoutes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const intake = yield* InboundIntake
    const stream = yield* AuthorizationStream
    for (const endpoint of [...InboundEndpoints, ChatInteractions]) {
      const handler = endpoint.name === AUTH_STREAM_ENDPOINT ? stream : intake
      yield* router.add("POST", endpoint.path as `/${string}`, (request) => handler.handle(endpoint, request))
    }
  })
)
