import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { amountFlags, amountOf } from "../Amount.ts"
import { call, connect } from "../Api.ts"
import { exitForStatus } from "../Failure.ts"
import { idempotencyHeaders, idempotencyKeyFlag } from "../Idempotency.ts"
import { show } from "../Output.ts"
import * as Render from "../Render.ts"

const optional = <K extends string, A>(key: K, value: Option.Option<A>) =>
  (Option.isSome(value) ? { [key]: value.value } : {}) as Partial<Record<K, A>>

const intent = Command.make(
  "intent",
  {
    ...amountFlags,
    merchant: Flag.String("merchant").pipe(Flag.withDescription("The merchant's name")),
    merchantUrl: Flag.String("merchant-url").pipe(Flag.withDescription("The merchant's URL"), Flag.optional),
    mcc: Flag.String("mcc").pipe(Flag.withDescription("The merchant category code (four digits)"), Flag.optional),
    country: Flag.String("country").pipe(
      Flag.withDescription("The merchant's country (ISO 3166-1, e.g. US)"),
      Flag.optional
    ),
    purpose: Flag.String("purpose").pipe(Flag.withDescription("What is bought and why")),
    expiresIn: Flag.Int("expires-in").pipe(
      Flag.withDescription("Seconds the intent may wait unused (60 s to 30 days; default 1 h)"),
      Flag.optional
    ),
    idempotencyKey: idempotencyKeyFlag
  },
  Effect.fn(function* (input) {
    const money = yield* amountOf(input)
    const connection = yield* connect
    const payload = {
      ...money,
      merchant: {
        name: input.merchant,
        ...optional("url", input.merchantUrl),
        ...optional("mcc", input.mcc),
        ...optional("country", input.country)
      },
      purpose: input.purpose,
      ...optional("expiresInSeconds", input.expiresIn)
    }
    const created = yield* call(
      connection,
      connection.client.checkout.create({ ...idempotencyHeaders(input.idempotencyKey), payload })
    )
    yield* show(created, Render.checkoutIntent)
    yield* exitForStatus(created.status)
  })
).pipe(
  Command.withDescription(
    "Ask to buy from one merchant: approved exits 0 (then get its card with `svc checkout card <id>`), denied 3, " +
      "pending approval 4"
  )
)

const card = Command.make(
  "card",
  { intentId: Argument.String("intentId").pipe(Argument.withDescription("The checkout intent's id")) },
  Effect.fn(function* ({ intentId }) {
    const connection = yield* connect
    yield* show(
      yield* call(connection, connection.client.checkoutCredentials.credentials({ params: { id: intentId } })),
      Render.card
    )
  })
).pipe(
  Command.withDescription(
    "Get the card of an approved intent. The number and CVC are shown once: later calls show only the last four digits"
  )
)

/** `svc checkout intent|card`. */
export const checkout = Command.make("checkout").pipe(
  Command.withDescription("Just-in-time cards for one purchase"),
  Command.withSubcommands([intent, card])
)
