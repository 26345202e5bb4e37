import { UuidParam } from "@svc/adapters-http/api"
import { CallResponse, type Client, toApiError } from "@svc/sdk"
import { Context, Effect, Schema } from "effect"

/** The SDK client of the caller a tool call runs for: its bearer credential is the caller's own. */
export class ServiceClient extends Context.Service<ServiceClient, Client>()("@svc/adapters-mcp/ServiceClient") {}

/**
 * What a refused tool call answers: the API's `error` code, message and invalid fields, the HTTP status (0 when no
 * answer arrived) and the request id to quote.
 */
export const ToolFailure = Schema.Struct({
  error: Schema.String,
  message: Schema.String,
  status: Schema.Number,
  details: Schema.optionalKey(Schema.Array(Schema.Struct({ path: Schema.String, message: Schema.String }))),
  requestId: Schema.optionalKey(Schema.String)
})
export type ToolFailure = typeof ToolFailure.Type

/** The tool parameter naming the agent's own request id, sent as the `Idempotency-Key`. */
export const ClientRequestId = Schema.optionalKey(
  Schema.String.check(Schema.isBetweenLength(1, 255, { message: "clientRequestId must be 1..255 characters" }))
).annotate({
  description:
    "Your id for this logical request (e.g. a UUID you keep). Send the same value when you retry the call after a " +
    "timeout or lost answer: the service then replays the first answer instead of spending again. Without it every " +
    "call is a new request."
})

/** The `Idempotency-Key` header of a creating call: the agent's `clientRequestId`, else the SDK makes one per call. */
export const idempotencyHeaders = (clientRequestId: string | undefined) =>
  clientRequestId === undefined ? {} : { headers: { "idempotency-key": clientRequestId } }

/** Runs one SDK call as the caller; any refusal becomes the tool's `ToolFailure` (the API's words, nothing internal). */
export const callService = <A, E>(
  f: (client: Client) => Effect.Effect<A, E>
): Effect.Effect<A, ToolFailure, ServiceClient> =>
  Effect.gen(function* () {
    const client = yield* ServiceClient
    const holder: CallResponse["Service"] = { last: undefined }
    return yield* f(client).pipe(
      Effect.provideService(CallResponse, holder),
      Effect.catch((failure) =>
        Effect.flatMap(toApiError(failure, holder.last), (e) =>
          Effect.fail<ToolFailure>({
            error: e.error,
            message: e.message,
            status: e.status,
            ...(e.details === undefined ? {} : { details: e.details }),
            ...(e.requestId === undefined ? {} : { requestId: e.requestId })
          })
        )
      )
    )
  })

/** The parameters of a tool that names one resource by its id: `{id}`, a UUID, described for the agent. */
export const ById = (what: string) =>
  Schema.Struct({ id: UuidParam.annotate({ description: `The ${what}'s id (a UUID).` }) })
