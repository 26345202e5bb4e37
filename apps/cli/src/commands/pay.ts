import { X402PaymentNotMade, X402ResourceFailed, x402FetchEffect } from "@svc/sdk"
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { call, connect } from "../Api.ts"
import { ExitCode, exitForStatus, failure } from "../Failure.ts"
import { withProgress } from "../Progress.ts"
import { waitFlags, waitTimeout } from "../Waiting.ts"

/**
 * `svc pay <url>`: fetches a resource, paying it over x402 when it answers 402 (the team's wallet, under the key's
 * policy), and prints what it answers on stdout.
 */
export const pay = Command.make(
  "pay",
  {
    url: Argument.String("url").pipe(Argument.withDescription("The resource to fetch (http or https)")),
    method: Flag.Literals("method", ["GET", "POST", "PUT", "PATCH", "DELETE"]).pipe(
      Flag.withDescription("The HTTP method"),
      Flag.withDefault("GET")
    ),
    data: Flag.String("data").pipe(Flag.withDescription("A request body to send"), Flag.optional),
    idempotencyKey: Flag.String("idempotency-key").pipe(
      Flag.withDescription("The payment's Idempotency-Key (a repeated command then pays once)"),
      Flag.optional
    ),
    ...waitFlags
  },
  Effect.fn(function* (input) {
    const connection = yield* connect
    const waiting = `waiting for approval of the payment of ${input.url}`
    const fetchPaying = (onPending: () => void) =>
      x402FetchEffect(connection.client, {
        approval: input.noWait ? "return" : "wait",
        wait: { onPending, ...waitTimeout(input.timeout) },
        ...Option.match(input.idempotencyKey, { onNone: () => ({}), onSome: (key) => ({ idempotencyKey: () => key }) })
      })(input.url, {
        method: input.method,
        ...Option.match(input.data, { onNone: () => ({}), onSome: (body) => ({ body }) })
      })
    // The payment's own outcomes are caught before `call`, which makes every other failure the exit it maps to.
    const outcome = yield* withProgress(waiting, (onPending) =>
      call(
        connection,
        fetchPaying(onPending).pipe(
          Effect.map((response) => ({ _tag: "answered" as const, response })),
          Effect.catchIf(
            (error): error is X402PaymentNotMade => error instanceof X402PaymentNotMade,
            (error) => Effect.succeed({ _tag: "not-made" as const, error })
          ),
          Effect.catchIf(
            (error): error is X402ResourceFailed => error instanceof X402ResourceFailed,
            (error) => Effect.succeed({ _tag: "unreachable" as const, error })
          )
        )
      )
    )
    if (outcome._tag === "unreachable") return yield* Effect.fail(failure(ExitCode.unavailable, outcome.error.message))
    if (outcome._tag === "not-made") {
      yield* Effect.sync(() => process.stderr.write(`${outcome.error.message}\n`))
      return yield* exitForStatus(outcome.error.payment.status)
    }
    const answer = outcome.response
    const body = yield* Effect.promise(() => answer.text())
    yield* Effect.sync(() => process.stdout.write(body))
    if (!answer.ok) return yield* Effect.fail(failure(ExitCode.apiError, `${input.url} answered ${answer.status}`))
  })
).pipe(
  Command.withDescription(
    "Fetch a resource, paying it over x402 when it answers 402 Payment Required: the team's wallet pays once the " +
      "key's policy allows it. Prints the resource on stdout; a denied payment exits 3, one still waiting for " +
      "approval 4 (waited for unless --no-wait)."
  ),
  Command.withExamples([{ command: "svc pay https://api.example.com/weather", description: "Fetch a paid resource" }])
)
