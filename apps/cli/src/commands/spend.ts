import { SpendRequestStatus } from "@svc/domain/model"
import { awaitDecision, type SpendRequest } from "@svc/sdk"
import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { amountFlags, amountOf } from "../Amount.ts"
import { call, connect } from "../Api.ts"
import { exitForStatus } from "../Failure.ts"
import { idempotencyHeaders, idempotencyKeyFlag } from "../Idempotency.ts"
import { limited, listCommand, listFlags } from "../Lists.ts"
import { show } from "../Output.ts"
import { withProgress } from "../Progress.ts"
import * as Render from "../Render.ts"
import { waitFlags, waitTimeout } from "../Waiting.ts"

const idArgument = Argument.String("id").pipe(Argument.withDescription("The spend request's id"))

const request = Command.make(
  "request",
  {
    ...amountFlags,
    merchant: Flag.String("merchant").pipe(Flag.withDescription("The merchant's name")),
    merchantCategory: Flag.String("merchant-category").pipe(
      Flag.withDescription("The merchant's category slug, e.g. software"),
      Flag.optional
    ),
    merchantUrl: Flag.String("merchant-url").pipe(Flag.withDescription("The merchant's URL"), Flag.optional),
    purpose: Flag.String("purpose").pipe(Flag.withDescription("Why the money is spent")),
    idempotencyKey: idempotencyKeyFlag,
    ...waitFlags
  },
  Effect.fn(function* (input) {
    const money = yield* amountOf(input)
    const connection = yield* connect
    const { client } = connection
    const merchant = {
      name: input.merchant,
      ...Option.match(input.merchantCategory, { onNone: () => ({}), onSome: (category) => ({ category }) }),
      ...Option.match(input.merchantUrl, { onNone: () => ({}), onSome: (url) => ({ url }) })
    }
    const created = yield* call(
      connection,
      client.spendRequests.create({
        ...idempotencyHeaders(input.idempotencyKey),
        payload: { ...money, merchant, purpose: input.purpose }
      })
    )
    let outcome: SpendRequest = created
    if (created.status === "pending_approval" && !input.noWait) {
      outcome = yield* withProgress(`waiting for approval of spend request ${created.id}`, (onPending) =>
        call(connection, awaitDecision(client, created.id, { onPending, ...waitTimeout(input.timeout) }))
      )
    }
    yield* show(outcome, Render.spendRequest)
    yield* exitForStatus(outcome.status)
  })
).pipe(
  Command.withDescription(
    "Ask to spend. Approved exits 0, denied 3; a request that needs approval waits for the decision (a spinner on " +
      "stderr) unless --no-wait, and exits 4 while still pending."
  ),
  Command.withExamples([
    {
      command: 'svc spend request --amount 19.99 --currency USD --merchant OpenAI --purpose "API tokens"',
      description: "Spend USD 19.99"
    }
  ])
)

const list = Command.make(
  "list",
  {
    ...listFlags,
    status: Flag.Literals("status", SpendRequestStatus.literals).pipe(
      Flag.withDescription("Only requests with this status"),
      Flag.optional
    )
  },
  Effect.fn(function* ({ all, limit, status }) {
    const connection = yield* connect
    const query = limited(Option.isSome(status) ? { status: status.value } : {}, limit)
    yield* listCommand(connection, connection.client.spendRequests.list, { query }, all, Render.spendRequests)
  })
).pipe(Command.withDescription("List spend requests, newest first"))

const get = Command.make(
  "get",
  { id: idArgument },
  Effect.fn(function* ({ id }) {
    const connection = yield* connect
    yield* show(yield* call(connection, connection.client.spendRequests.get({ params: { id } })), Render.spendRequest)
  })
).pipe(Command.withDescription("Show one spend request with the policy's reasons"))

const cancel = Command.make(
  "cancel",
  { id: idArgument },
  Effect.fn(function* ({ id }) {
    const connection = yield* connect
    yield* show(
      yield* call(connection, connection.client.spendRequests.cancel({ params: { id } })),
      Render.spendRequest
    )
  })
).pipe(Command.withDescription("Cancel a spend request that is pending approval (releases its hold)"))

/** `svc spend request|list|get|cancel`. */
export const spend = Command.make("spend").pipe(
  Command.withDescription("Spend requests: ask to spend, list, show and cancel"),
  Command.withSubcommands([request, list, get, cancel])
)
