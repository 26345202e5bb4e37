import { Console, Effect, Option, Redacted } from "effect"
import { Command, Flag, Prompt } from "effect/cli"
import { defaultBaseUrl, forget, store } from "../Credentials.ts"
import { usage } from "../Failure.ts"

/** `svc login`: stores the credential and the service's URL in the user's config folder (0600). */
export const login = Command.make(
  "login",
  {
    token: Flag.String("token").pipe(
      Flag.withDescription("The spending key, team API key or session token (prompted for, hidden, when left out)"),
      Flag.optional
    ),
    baseUrl: Flag.String("base-url").pipe(
      Flag.withDescription(`The service's URL (default ${defaultBaseUrl})`),
      Flag.withDefault(defaultBaseUrl)
    )
  },
  Effect.fn(function* ({ token, baseUrl }) {
    if (!URL.canParse(baseUrl)) return yield* usage(`--base-url: expected a URL such as ${defaultBaseUrl}`)
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
    const file = yield* store({ baseUrl: baseUrl.replace(/\/+$/u, ""), token: secret.trim() })
    yield* Console.error(`logged in to ${baseUrl}; the credential is stored in ${file}`)
  })
).pipe(
  Command.withDescription(
    "Store a credential for later commands, in $XDG_CONFIG_HOME/svc (else ~/.config/svc), readable by you alone. " +
      "SVC_TOKEN and SVC_BASE_URL in the environment win over the stored ones."
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
