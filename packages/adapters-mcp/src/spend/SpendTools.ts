import {
  CreateSpendRequestBody,
  ListOf,
  ListQuery,
  SpendEvaluationResponse,
  SpendRequestResponse
} from "@svc/adapters-http/api"
import { Schema } from "effect"
import { Tool } from "effect/ai"
import {
  ById,
  ClientRequestId,
  callService,
  idempotencyHeaders,
  readsOnly,
  ServiceClient,
  ToolFailure,
  toolHints
} from "../shared/index.ts"

/** Asks to spend: the contract's body of POST /v1/spend-requests plus the agent's `clientRequestId`. */
export const CreateSpendRequest = Tool.make("create_spend_request", {
  description:
    "Ask to spend money from the credential's account. `amount` is an integer in minor units of `currency` (1999 = " +
    "$19.99 in USD). The key's policy decides at once: `approved` (the money moved), `denied` (nothing moved; " +
    "`decision.reasons` says why), or `pending_approval` (a person of the team must approve; the amount is held). On " +
    "`pending_approval`, do not retry: poll get_spend_request with the returned id until the status changes, or " +
    "cancel_spend_request to release the hold. Pass a `clientRequestId` and reuse it on retries so the spend happens " +
    "once. Needs the spend.write scope.",
  parameters: Schema.Struct({ ...CreateSpendRequestBody.fields, clientRequestId: ClientRequestId }),
  success: SpendRequestResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(toolHints({ readOnly: false, destructive: true, idempotent: false, openWorld: false }))

/** Asks what create_spend_request would decide, without spending. */
export const EvaluateSpendRequest = Tool.make("evaluate_spend_request", {
  description:
    "Dry run of create_spend_request: answers `{outcome, reasons}` (`approved`, `pending_approval` or `denied`, " +
    "each reason with its figures such as `limit`, `used`, `remaining`, `resetsAt`) as the key's policy would decide " +
    "these parameters now, and changes nothing: no request, no hold, no budget used. Use it to check a purchase " +
    "before asking; another request may change the answer right after. Needs spend.write.",
  parameters: CreateSpendRequestBody,
  success: SpendEvaluationResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(readsOnly)

/** Reads one spend request. */
export const GetSpendRequest = Tool.make("get_spend_request", {
  description:
    "Read one spend request by id: its status (`approved`, `denied`, `pending_approval`, `canceled`, `expired`), " +
    "amount in minor units, merchant and decision. Use it to follow a `pending_approval` request. Needs spend.read.",
  parameters: ById("spend request"),
  success: SpendRequestResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(readsOnly)

/** Lists spend requests, newest first. */
export const ListSpendRequests = Tool.make("list_spend_requests", {
  description:
    "List the team's spend requests in the credential's mode, newest first, optionally by `status`. Answers " +
    "`{data, meta: {cursor, hasNextPage}}`: pass `meta.cursor` back as `cursor` for the next page. Needs spend.read.",
  parameters: Schema.Struct({
    status: Schema.optionalKey(SpendRequestResponse.fields.status),
    limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))).annotate({
      description: "At most this many (1..100, default 20)."
    }),
    cursor: ListQuery.cursor
  }),
  success: ListOf(SpendRequestResponse),
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(readsOnly)

/** Cancels a pending spend request. */
export const CancelSpendRequest = Tool.make("cancel_spend_request", {
  description:
    "Cancel a `pending_approval` spend request and release its hold. Fails with `conflict` when the request is " +
    "already final (approved, denied, canceled, expired). Needs spend.write.",
  parameters: ById("spend request"),
  success: SpendRequestResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(toolHints({ readOnly: false, destructive: true, idempotent: true, openWorld: false }))

/** The spend tools' handlers, each one call of the SDK as the caller. */
export const spendHandlers = {
  create_spend_request: ({ clientRequestId, ...payload }: typeof CreateSpendRequest.parametersSchema.Type) =>
    callService((client) => client.spendRequests.create({ payload, ...idempotencyHeaders(clientRequestId) })),
  evaluate_spend_request: (payload: typeof EvaluateSpendRequest.parametersSchema.Type) =>
    callService((client) => client.spendEvaluation.evaluate({ payload })),
  get_spend_request: ({ id }: typeof GetSpendRequest.parametersSchema.Type) =>
    callService((client) => client.spendRequests.get({ params: { id } })),
  list_spend_requests: (query: typeof ListSpendRequests.parametersSchema.Type) =>
    callService((client) => client.spendRequests.list({ query })),
  cancel_spend_request: ({ id }: typeof CancelSpendRequest.parametersSchema.Type) =>
    callService((client) => client.spendRequests.cancel({ params: { id } }))
}
