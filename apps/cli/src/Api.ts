import { CallResponse, type Client, makeClient, toApiError } from "@svc/sdk"
import { Config, Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { type Credentials, currentCredentials } from "./Credentials.ts"
import { fromApiError, usage } from "./Failure.ts"

/** The SDK's Effect client for the current credentials, with where it points. */
export interface Connection {
  readonly client: Client
  readonly baseUrl: string
}

/**
 * How long the SDK keeps retrying connection failures, 5xx and 429 (`SVC_RETRY_MAX_MS`, default 10 s): a person at a
 * terminal waits seconds, not the SDK's five minutes.
 */
const retryMaxMs = Config.Int("SVC_RETRY_MAX_MS").pipe(Config.withDefault(10_000))

/** Connects with the stored or environment credentials (exit 7 when there are none). */
export const connect = Effect.gen(function* () {
  const credentials: Credentials = yield* currentCredentials
  const maxElapsedMs = yield* retryMaxMs.pipe(
    Effect.mapError(() => usage("SVC_RETRY_MAX_MS: expected a whole number of milliseconds, e.g. 10000"))
  )
  const client = yield* makeClient({
    baseUrl: credentials.baseUrl,
    token: credentials.token,
    retry: { maxElapsedMs }
  }).pipe(Effect.provide(FetchHttpClient.layer))
  return { client, baseUrl: credentials.baseUrl } satisfies Connection
})

/**
 * Runs one SDK call; its failure becomes the exit it maps to, carrying the service's code, message, invalid fields
 * and the response's request id.
 */
export const call = <A, E>(connection: Connection, request: Effect.Effect<A, E>) => {
  const response: CallResponse["Service"] = { last: undefined }
  return request.pipe(
    Effect.catch((failure) =>
      Effect.flatMap(toApiError(failure, response.last), (error) =>
        Effect.fail(fromApiError(error, connection.baseUrl))
      )
    ),
    Effect.provideService(CallResponse, response)
  )
}
