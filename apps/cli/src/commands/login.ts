import { DEFAULT_PORT } from "@svc/domain/model"
import { CallResponse, makeClient, toApiError } from "@svc/sdk"
import { Console, Effect, Option, Redacted } from "effect"
import { Command, Flag, Prompt } from "effect/cli"
import { FetchHttpClient } from "effect/http"
import { baseUrlHelp, forget, resolveBaseUrl, store } from "../Credentials.ts"
import { ExitCode, failure, usage } from "../Failure.ts"

/** The HTTP status a call answers: 200 when it succeeds, 0 when the service could not be reached. */
const statusOf = <A, E>(request: Effect.Effect<A, E>) => {
  const response: CallResponse["Service"] = { last: undefined }
  return request.pipe(
    Effect.as(200),
    Effect.catch((failure) => Effect.map(toApiError(failure, response.last), (error) => error.status)),
    Effect.provideService(CallResponse, response)
  )
}

/**
 * Checks `token` with the service before anything is stored: an agent's key is known by `GET /v1/balance`, a person's
 * session by `GET /users/me`; any answer but 401 means the service knows the credential (a key without the scope to
 * read the balance still authenticates). Refused (exit 7) when both answer 401, unreachable (exit 6) when neither
 * answers.
 */
const verify = (baseUrl: string, token: string) =>
  Effect.gen(function* () {
    const client = yield* makeClient({ baseUrl, token, retry: { maxElapsedMs: 3_000 } }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )
    const asAgent = yield* statusOf(client.accounts.balance())
    const status = asAgent === 401 ? yield* statusOf(client.me.me()) : asAgent
    if (status === 0) {
      return yield* failure(ExitCode.unavailable, `could not reach ${baseUrl} to check the credential`, [
        "nothing was stored"
      ])
    }
    if (status === 401) {
      return yield* failure(ExitCode.notLoggedIn, `${baseUrl} refused this credential (401)`, ["nothing was stored"])
    }
  })

/** `svc login`: stores the credential and the service's URL in the user's config folder (0600). */
export const login = Command.make(
  "login",
  {
    token: Flag.String("token").pipe(
      Flag.withDescription("The spending key, team API key or session token (prompted for, hidden, when left out)"),
      Flag.optional
    ),
    baseUrl: Flag.String("base-url").pipe(
      Flag.withDescription(
        `The service's URL (else SVC_BASE_URL, else http://localhost:$PORT, PORT ${DEFAULT_PORT} unless set)`
      ),
      Flag.optional
    )
  },
  Effect.fn(function* ({ token, baseUrl: given }) {
    const service = yield* resolveBaseUrl(given, Option.none())
    const secret = Option.isSome(token)
      ? token.value
      : process.stdin.isTTY === true
        ? Redacted.value(
            yield* Prompt.run(Prompt.Hidden({ message: "Token" })).pipe(
              Effect.catchTag("QuitError", () => Effect.fail(usage("login canceled")))
            )
          )
        : yield* usage("--token: give the token (no terminal to prompt on)")
    if (secret.trim() === "") return yield* usage("--token: the token is empty")
    yield* verify(service, secret.trim())
    const file = yield* store({ baseUrl: service, token: secret.trim() })
    yield* Console.error(`logged in to ${service}; the credential is stored in ${file}`)
  })
).pipe(
  Command.withDescription(
    "Check a credential with the service, then store it for later commands, in $XDG_CONFIG_HOME/svc (else " +
      "~/.config/svc), readable by you alone. " +
      "SVC_TOKEN and SVC_BASE_URL in the environment win over the stored ones. Where the service is: " +
      baseUrlHelp +
      "."
  )
)

/** `svc logout`: removes the stored credential. */
export const logout = Command.make(
  "logout",
  {},
  Effect.fn(function* () {
    const removed = yield* forget
    yield* Console.error(removed ? "logged out" : "not logged in")
  })
).pipe(Command.withDescription("Remove the stored credential"))
