import {
  type InboundEvent,
  InboundEventStore,
  isoOfMillis,
  MaxFileBytes,
  newIdText,
  type PersistenceUnavailable,
  StandardWebhooksHeaders
} from "@svc/domain"
import { Clock, Context, Effect, Layer, Option, Result, Schema } from "effect"
import type { HttpServerRequest, HttpServerResponse } from "effect/http"
import {
  errorAnswer as error,
  inboxBodyLimit,
  jsonAnswer as json,
  parseObject,
  payloadIssues,
  unstorableInput,
  verifiedBody
} from "./InboundRequest.ts"
import { InboundRunner } from "./InboundRunner.ts"
import { InboundSecrets } from "./InboundSecrets.ts"
import { parseChatInteraction } from "./mapping/ChatInteraction.ts"
import { InboxMessage, teamOfEvent } from "./mapping/index.ts"
import { ChatInteractions, type InboundEndpoint } from "./verify/Endpoints.ts"
import { parseEnvelope } from "./verify/Envelope.ts"

interface Parsed {
  readonly providerEventId: string
  readonly type: string
  readonly payload: Readonly<Record<string, unknown>>
}

/** Verifies, parses and stores inbound provider requests, answering with each endpoint's statuses and bodies. */
export class InboundIntake extends Context.Service<
  InboundIntake,
  {
    readonly handle: (
      endpoint: InboundEndpoint,
      request: HttpServerRequest.HttpServerRequest
    ) => Effect.Effect<HttpServerResponse.HttpServerResponse>
  }
>()("@svc/adapters-webhooks/InboundIntake") {
  static readonly layer = Layer.effect(
    InboundIntake,
    Effect.gen(function* () {
      const store = yield* InboundEventStore
      const secrets = yield* InboundSecrets
      const inboxLimit = inboxBodyLimit(yield* MaxFileBytes)
      const runner = yield* InboundRunner

      const invalidPayload = (endpoint: InboundEndpoint, message: string, path = "body") =>
        endpoint.name === "inbox"
          ? json(400, { error: "invalid_payload", errors: [{ path, message }] })
          : error(400, "invalid_payload", message)

      const parseBody = (
        endpoint: InboundEndpoint,
        body: Uint8Array,
        headers: Readonly<Record<string, string | undefined>>
      ): Result.Result<Parsed, HttpServerResponse.HttpServerResponse> => {
        if (endpoint.name === "inbox") {
          const object = parseObject(body)
          if (object === undefined) return Result.fail(invalidPayload(endpoint, "the body must be a JSON object"))
          const decoded = Schema.decodeUnknownExit(InboxMessage)(object, { errors: "all" })
          if (decoded._tag === "Failure") {
            return Result.fail(
              json(400, { error: "invalid_payload", errors: payloadIssues(decoded.cause, "invalid e-mail message") })
            )
          }
          return Result.succeed({ providerEventId: decoded.value.MessageID, type: "inbound_email", payload: object })
        }
        if (endpoint.name === ChatInteractions.name) {
          return Result.mapError(parseChatInteraction(body), (e) => invalidPayload(endpoint, e.message))
        }
        if (endpoint.eventIdSource === "webhook-id-header") {
          const object = parseObject(body)
          if (object === undefined) return Result.fail(invalidPayload(endpoint, "the body must be a JSON object"))
          if (typeof object.type !== "string" || object.type.length === 0) {
            return Result.fail(invalidPayload(endpoint, "missing string field type"))
          }
          return Result.succeed({
            providerEventId: headers[StandardWebhooksHeaders.id] ?? "",
            type: object.type,
            payload: object
          })
        }
        const envelope = parseEnvelope(body)
        if (Result.isFailure(envelope)) return Result.fail(invalidPayload(endpoint, envelope.failure.message))
        return Result.succeed({
          providerEventId: envelope.success.id,
          type: envelope.success.type,
          payload: envelope.success.payload
        })
      }

      const parse = (
        endpoint: InboundEndpoint,
        body: Uint8Array,
        headers: Readonly<Record<string, string | undefined>>
      ): Result.Result<Parsed, HttpServerResponse.HttpServerResponse> =>
        Result.flatMap(parseBody(endpoint, body, headers), (parsed) => {
          const issue = unstorableInput(parsed.payload)
          return issue === undefined
            ? Result.succeed(parsed)
            : Result.fail(invalidPayload(endpoint, issue.message, issue.path))
        })

      const processNow = (stored: InboundEvent) =>
        Effect.gen(function* () {
          const claimed = yield* store.claim(
            stored.id,
            isoOfMillis((yield* Clock.currentTimeMillis) + runner.policy.leaseMs)
          )
          if (Option.isNone(claimed)) return stored.status === "parked" ? "failed" : "done"
          return yield* runner.run(claimed.value).pipe(
            Effect.as("done" as const),
            Effect.catchTag("InboundProcessingFailed", () => Effect.succeed("failed" as const))
          )
        })

      const handle = (endpoint: InboundEndpoint, request: HttpServerRequest.HttpServerRequest) =>
        Effect.gen(function* () {
          const verified = yield* verifiedBody(
            endpoint,
            request,
            secrets.of(endpoint),
            ...(endpoint.name === "inbox" ? [inboxLimit] : [])
          )
          if (Result.isFailure(verified)) return verified.failure
          const body = verified.success
          const headers = request.headers as Readonly<Record<string, string | undefined>>
          const parsed = parse(endpoint, body, headers)
          if (Result.isFailure(parsed)) return parsed.failure
          const now = yield* Clock.currentTimeMillis
          const sync = endpoint.processedBeforeAnswer
          const received = { endpoint: endpoint.name, ...parsed.success }
          const { event } = yield* store.record({
            id: yield* newIdText,
            ...received,
            status: "pending",
            attempts: 0,
            nextAttemptAt: isoOfMillis(sync ? now + runner.policy.leaseMs : now),
            lastError: null,
            receivedAt: isoOfMillis(now),
            processedAt: null,
            teamId: teamOfEvent(received),
            discardedAt: null,
            discardedBy: null
          })
          if (sync && (yield* processNow(event)) === "failed") {
            return error(500, "processing_failed", "the event could not be processed; retry later")
          }
          return json(200, endpoint.acknowledgement.body)
        }).pipe(
          Effect.catchTag("PersistenceUnavailable", (_: PersistenceUnavailable) =>
            Effect.succeed(
              endpoint.name === "inbox"
                ? json(500, { error: "internal_error" })
                : error(503, "service_unavailable", "the event store is unavailable; retry later")
            )
          ),
          Effect.withSpan("InboundIntake.handle", { attributes: { endpoint: endpoint.name } })
        )

      return InboundIntake.of({ handle })
    })
  )
}
