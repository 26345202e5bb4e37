import { invalidTextMessage, jsonInputIssue, jsonTooDeepMessage } from "@svc/domain"
import { ByteSize, Cause, Clock, Effect, Option, Result, Schema, SchemaIssue } from "effect"
import { HttpIncomingMessage, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { type InboundEndpoint, statusForSignatureError } from "./verify/Endpoints.ts"
import type { WebhookSignatureReason } from "./verify/WebhookSignatureError.ts"

/** The largest body an inbound endpoint reads. */
const MAX_INBOUND_BODY_BYTES = 1024 * 1024

/**
 * The largest body the inbox endpoint reads: an attachment of the file limit in base64 (4/3 of it), with room for the
 * message's text and other attachments (about 41 MiB for the default 25 MiB).
 */
export const inboxBodyLimit = (maxFileBytes: number) => Math.ceil(maxFileBytes / 3) * 4 + 8 * 1024 * 1024

const MIB = 1024 * 1024

/** A JSON answer. */
export const jsonAnswer = (status: number, body: object) => HttpServerResponse.jsonUnsafe(body, { status })

/** The contract's error body `{error, code, message}`. */
export const errorAnswer = (status: number, code: string, message: string) =>
  jsonAnswer(status, { error: code, code: status, message })

const SIGNATURE_MESSAGES: Record<WebhookSignatureReason, string> = {
  missing_signature: "the signature header is missing",
  invalid_signature: "the signature does not match",
  stale_timestamp: "the signature timestamp is outside the replay window",
  malformed_header: "the signature header is malformed",
  forbidden_ip: "the source IP address is not allowed",
  secret_not_configured: "the signing secret of this endpoint is not configured"
}

const tooLarge = (limit: number) =>
  errorAnswer(
    413,
    "payload_too_large",
    `the request body is over ${limit % MIB === 0 ? `${limit / MIB} MiB` : `${limit} bytes`}`
  )

/**
 * The raw body of a request to `endpoint` once it is within `limit` (1 MiB unless given) and its signature holds under
 * `secrets`; otherwise the endpoint's refusal (413, or its status for the verification failure).
 */
export const verifiedBody = (
  endpoint: InboundEndpoint,
  request: HttpServerRequest.HttpServerRequest,
  secrets: ReadonlyArray<string>,
  limit: number = MAX_INBOUND_BODY_BYTES
): Effect.Effect<Result.Result<Uint8Array, HttpServerResponse.HttpServerResponse>> =>
  Effect.gen(function* () {
    const declared = Number(request.headers["content-length"] ?? "0")
    if (declared > limit) return Result.fail(tooLarge(limit))
    const read = yield* request.arrayBuffer.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(limit)),
      Effect.result
    )
    if (Result.isFailure(read)) {
      return Result.fail(
        /too ?large/iu.test(JSON.stringify(read.failure) + String(read.failure))
          ? tooLarge(limit)
          : errorAnswer(400, "invalid_payload", "the request body could not be read")
      )
    }
    const body = new Uint8Array(read.success)
    if (body.byteLength > limit) return Result.fail(tooLarge(limit))
    const remoteAddress = Option.getOrUndefined(request.remoteAddress)
    const headers = request.headers as Readonly<Record<string, string | undefined>>
    const verified = yield* endpoint
      .verify(
        remoteAddress === undefined ? { body, headers } : { body, headers, remoteAddress },
        secrets,
        Math.floor((yield* Clock.currentTimeMillis) / 1000)
      )
      .pipe(Effect.result)
    if (Result.isFailure(verified)) {
      const reason = verified.failure.reason
      return Result.fail(
        errorAnswer(statusForSignatureError(endpoint, verified.failure), reason, SIGNATURE_MESSAGES[reason])
      )
    }
    return Result.succeed(body)
  })

/** The body as a JSON object; undefined when it is not UTF-8 JSON or not an object. */
export const parseObject = (body: Uint8Array): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body))
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/** One invalid field of a provider's payload. */
export interface PayloadIssue {
  readonly path: string
  readonly message: string
}

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/** Each invalid field of a failed decode, by dotted path (`body` for the whole), or `fallback` when none is named. */
export const payloadIssues = (cause: Cause.Cause<Schema.SchemaError>, fallback: string): Array<PayloadIssue> => {
  const error = Option.getOrUndefined(Cause.findErrorOption(cause))
  if (error === undefined || !Schema.isSchemaError(error)) return [{ path: "body", message: fallback }]
  return formatter(error.issue).issues.map((i) => ({
    path: i.path?.map((p) => String(typeof p === "object" ? p.key : p)).join(".") || "body",
    message: i.message
  }))
}

/** The first place where a parsed payload nests too deep or carries text Postgres cannot store; undefined when none. */
export const unstorableInput = (payload: unknown): PayloadIssue | undefined => {
  const issue = jsonInputIssue(payload)
  if (issue === undefined) return undefined
  if (issue._tag === "TooDeep") return { path: "body", message: jsonTooDeepMessage }
  const path = issue.path.join(".")
  return { path, message: `${path}: ${invalidTextMessage}` }
}
