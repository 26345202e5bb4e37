import {
  type InboundEvent,
  InboundEventStore,
  invalidTextMessage,
  isoOfMillis,
  jsonInputIssue,
  jsonTooDeepMessage,
  newIdText,
  type PersistenceUnavailable,
  StandardWebhooksHeaders
} from "@svc/domain"
import { ByteSize, Clock, Context, Effect, Layer, Option, Result, Schema, SchemaIssue } from "effect"
import { HttpIncomingMessage, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { InboundRunner } from "./InboundRunner.ts"
import { InboundSecrets } from "./InboundSecrets.ts"
import { InboxMessage, teamOfEvent } from "./mapping/index.ts"
import { type InboundEndpoint, statusForSignatureError } from "./verify/Endpoints.ts"
import { parseEnvelope } from "./verify/Envelope.ts"
import type { WebhookSignatureReason } from "./verify/WebhookSignatureError.ts"

/** The largest body an inbound endpoint reads. */
export const MAX_INBOUND_BODY_BYTES = 1024 * 1024

const json = (status: number, body: object) => HttpServerResponse.jsonUnsafe(body, { status })
const error = (status: number, code: string, message: string) => json(status, { error: code, code: status, message })

const SIGNATURE_MESSAGES: Record<WebhookSignatureReason, string> = {
  missing_signature: "the signature header is missing",
  invalid_signature: "the signature does not match",
  stale_timestamp: "the signature timestamp is outside the replay window",
  malformed_header: "the signature header is malformed",
  forbidden_ip: "the source IP address is not allowed",
  secret_not_configured: "the signing secret of this endpoint is not configured"
}

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

interface Parsed {
  readonly providerEventId: string
  readonly type: string
  readonly payload: Readonly<Record<string, unknown>>
}

const parseObject = (body: Uint8Array): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body))
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
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
            const issue = Option.getOrUndefined(
              Option.flatMap(Option.fromNullishOr(decoded.cause.reasons[0]), (r) =>
                r._tag === "Fail" && Schema.isSchemaError(r.error) ? Option.some(r.error.issue) : Option.none()
              )
            )
            const errors =
              issue === undefined
                ? [{ path: "body", message: "invalid e-mail message" }]
                : formatter(issue).issues.map((i) => ({
                    path: i.path?.map((p) => String(typeof p === "object" ? p.key : p)).join(".") || "body",
                    message: i.message
                  }))
            return Result.fail(json(400, { error: "invalid_payload", errors }))
          }
          return Result.succeed({ providerEventId: decoded.value.MessageID, type: "inbound_email", payload: object })
        }
        if (endpoint.eventIdSource === "webhook-id-header") {
          const object = parseObject(body)
          if (object === undefined) return Result.fail(invalidPayload(endpoint, "the body must be a JSON object"))
          const isAuth = endpoint.name === "card-issuing-a/auth-stream"
          if (!isAuth && (typeof object.type !== "string" || object.type.length === 0)) {
            return Result.fail(invalidPayload(endpoint, "missing string field type"))
          }
          return Result.succeed({
            providerEventId: headers[StandardWebhooksHeaders.id] ?? "",
            type: isAuth ? "authorization.request" : String(object.type),
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
          const issue = jsonInputIssue(parsed.payload)
          if (issue === undefined) return Result.succeed(parsed)
          if (issue._tag === "TooDeep") return Result.fail(invalidPayload(endpoint, jsonTooDeepMessage))
          const path = issue.path.join(".")
          return Result.fail(invalidPayload(endpoint, `${path}: ${invalidTextMessage}`, path))
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
          const declared = Number(request.headers["content-length"] ?? "0")
          if (declared > MAX_INBOUND_BODY_BYTES)
            return error(413, "payload_too_large", "the request body is over 1 MiB")
          const read = yield* request.arrayBuffer.pipe(
            Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(MAX_INBOUND_BODY_BYTES)),
            Effect.result
          )
          if (Result.isFailure(read)) {
            const tooLarge = /too ?large/iu.test(JSON.stringify(read.failure) + String(read.failure))
            return tooLarge
              ? error(413, "payload_too_large", "the request body is over 1 MiB")
              : error(400, "invalid_payload", "the request body could not be read")
          }
          const body = new Uint8Array(read.success)
          if (body.byteLength > MAX_INBOUND_BODY_BYTES) {
            return error(413, "payload_too_large", "the request body is over 1 MiB")
          }
          const headers = request.headers as Readonly<Record<string, string | undefined>>
          const remoteAddress = Option.getOrUndefined(request.remoteAddress)
          const verified = yield* endpoint
            .verify(
              remoteAddress === undefined ? { body, headers } : { body, headers, remoteAddress },
              secrets.of(endpoint),
              Math.floor((yield* Clock.currentTimeMillis) / 1000)
            )
            .pipe(Effect.result)
          if (Result.isFailure(verified)) {
            const reason = verified.failure.reason
            return error(statusForSignatureError(endpoint, verified.failure), reason, SIGNATURE_MESSAGES[reason])
          }
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
