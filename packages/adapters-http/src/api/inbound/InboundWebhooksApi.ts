import {
  CardAuthorizationRequest,
  ChatInteractionsWebhook,
  type InboundWebhook,
  InboundWebhooks,
  signatureHeaders
} from "@svc/domain/model"
import { Array as Arr, Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  BadRequest,
  FieldIssue,
  Forbidden,
  PayloadTooLarge,
  ServiceUnavailable,
  Unauthorized
} from "../shared/index.ts"

/** A provider's request body: raw JSON, verified byte for byte before it is parsed. */
const InboundPayload = Schema.Record(Schema.String, Schema.Unknown).annotate({
  identifier: "InboundPayload",
  description:
    "The provider's event as raw JSON: an envelope with string `id` and `type` (the Standard Webhooks endpoints take " +
    "the id from `webhook-id`); inbox takes the e-mail provider's message and auth-stream an authorization request."
})

/** The chat platform's interaction: a form whose one field holds the interaction as JSON. */
const ChatInteractionForm = Schema.Struct({
  payload: Schema.String.annotate({
    description:
      "The interaction as JSON: `{type, trigger_id, user: {id}, team: {id}, response_url, actions: [{action_id, " +
      "value}]}`; a `block_actions` press of an approval message's `approve` or `deny` button (value: the approval id)."
  })
})
  .annotate({ identifier: "ChatInteractionForm" })
  .pipe(HttpApiSchema.asFormUrlEncoded())

const InboxInvalidPayload = Schema.Struct({
  error: Schema.Literal("invalid_payload"),
  errors: Schema.Array(FieldIssue)
})
  .annotate({ description: "The e-mail message is invalid" })
  .pipe(HttpApiSchema.status(400))

const InboxInternalError = Schema.Struct({ error: Schema.Literal("internal_error") })
  .annotate({ description: "The event could not be stored" })
  .pipe(HttpApiSchema.status(500))

const ProcessingFailed = Schema.Struct({
  error: Schema.Literal("processing_failed"),
  code: Schema.Literal(500),
  message: Schema.String
})
  .annotate({ description: "The event could not be processed; the provider retries" })
  .pipe(HttpApiSchema.status(500))

const INBOX = "inbox"
const AUTH_STREAM = "card-issuing-a/auth-stream"

const operationName = (name: string) => name.replace(/[-/](\w)/gu, (_, letter: string) => letter.toUpperCase())

const errorsOf = (webhook: InboundWebhook) => [
  ...(webhook.name === INBOX ? [InboxInvalidPayload, InboxInternalError] : []),
  // The auth-stream always answers its decision: DECLINED when it cannot decide, never 503.
  ...(webhook.name === INBOX || webhook.name === AUTH_STREAM ? [] : [ServiceUnavailable]),
  BadRequest,
  PayloadTooLarge,
  ...(webhook.invalidSignatureStatus === 401 ? [Unauthorized] : []),
  ...(webhook.invalidSignatureStatus === 403 ? [Forbidden] : []),
  ...(webhook.processedBeforeAnswer ? [ProcessingFailed] : [])
]

const AUTH_STREAM_ANSWER =
  " The body is the issuer's authorization request `{token, card_token, amount, currency, merchant: {descriptor, mcc?, " +
  "country?}}` (400 `invalid_payload` naming the field otherwise). It is decided at once and answered 200 " +
  '`{approve_response: "APPROVED"}` or `{approve_response: "DECLINED", decline_reason}`; a replayed `token` ' +
  "answers the first decision. Nothing is stored as an inbound event: the authorization is its own record."

const CHAT_ANSWER =
  " Stored once per `trigger_id` and answered 200 `{ok: true}` at once (within the platform's 3 s); the press is then " +
  "decided in the background as the team member linked to the chat user, who is told the outcome privately."

const descriptionOf = (webhook: InboundWebhook) =>
  (webhook.signature._tag === "SourceIp"
    ? `Accepted only from the source addresses in \`${webhook.secretEnv}\` (IPs or CIDRs).`
    : `Signed with the secret in \`${webhook.secretEnv}\` (comma-separated during rotation), verified over the raw body.`) +
  (webhook.name === AUTH_STREAM
    ? AUTH_STREAM_ANSWER
    : webhook.signature._tag === "ChatSigning"
      ? CHAT_ANSWER
      : " Each event is stored once per provider event id; a repeat is acknowledged again." +
        (webhook.processedBeforeAnswer ? " The event is processed before the answer." : ""))

const endpointOf = (webhook: InboundWebhook) => {
  const headers = signatureHeaders(webhook.signature)
  return HttpApiEndpoint.post(operationName(webhook.name), webhook.path, {
    payload:
      webhook.name === AUTH_STREAM
        ? CardAuthorizationRequest
        : webhook.signature._tag === "ChatSigning"
          ? ChatInteractionForm
          : InboundPayload,
    success: webhook.acknowledgement.schema.annotate({
      description: webhook.name === AUTH_STREAM ? "The decision" : "Acknowledged"
    }),
    error: errorsOf(webhook),
    ...(headers.length === 0
      ? {}
      : {
          headers: Schema.Struct(
            Object.fromEntries(headers.map((h) => [h.name, Schema.String.annotate({ description: h.description })]))
          )
        })
  })
    .annotate(OpenApi.Summary, webhook.summary)
    .annotate(OpenApi.Description, descriptionOf(webhook))
}

/** The provider webhooks and the chat callback: raw routes of the webhooks adapter, described here from the domain's table. */
export class InboundWebhooksApi extends HttpApiGroup.make("inboundWebhooks").add(
  ...Arr.map(Arr.append(InboundWebhooks, ChatInteractionsWebhook), endpointOf)
) {}

const InboundWebhooksDocument = HttpApi.make("inbound").add(InboundWebhooksApi)

/** Adds the inbound webhook operations, their tag and their schemas to an OpenAPI document. */
export const withInboundWebhooks = (document: Record<string, unknown>): Record<string, unknown> => {
  const spec = document as unknown as OpenApi.OpenAPISpec
  const inbound = OpenApi.fromApi(InboundWebhooksDocument)
  return {
    ...spec,
    paths: { ...spec.paths, ...inbound.paths },
    components: { ...spec.components, schemas: { ...spec.components.schemas, ...inbound.components.schemas } },
    tags: [...spec.tags, ...inbound.tags]
  }
}
