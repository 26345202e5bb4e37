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

const cardId = Argument.String("cardId").pipe(Argument.withDescription("The card's id (`card` of the intent)"))
const authorizationId = Argument.String("authorizationId").pipe(
  Argument.withDescription("The authorization's id, as `svc checkout simulate authorize` showed it")
)

/** The amount of an existing authorization: `--amount`/`--amount-minor` in its currency (USD unless `--currency`). */
const authorizationAmountOf = (flags: Parameters<typeof amountOf>[0]) =>
  Effect.map(amountOf(flags, "USD"), (money) => money.amount)

const authorize = Command.make(
  "authorize",
  {
    cardId,
    ...amountFlags,
    merchant: Flag.String("merchant").pipe(Flag.withDescription('The merchant\'s descriptor, e.g. "ACME BOOKS #42"')),
    mcc: Flag.String("mcc").pipe(Flag.withDescription("The merchant category code (four digits)"), Flag.optional),
    country: Flag.String("country").pipe(Flag.withDescription("The merchant's country (ISO 3166-1)"), Flag.optional),
    idempotencyKey: idempotencyKeyFlag
  },
  Effect.fn(function* (input) {
    const money = yield* amountOf(input)
    const connection = yield* connect
    const payload = {
      ...money,
      merchant: { descriptor: input.merchant, ...optional("mcc", input.mcc), ...optional("country", input.country) }
    }
    const answer = yield* call(
      connection,
      connection.client.checkoutTestHelpers.authorize({
        ...idempotencyHeaders(input.idempotencyKey),
        params: { id: input.cardId },
        payload
      })
    )
    yield* show(answer, Render.cardAuthorization)
    yield* exitForStatus(answer.status)
  })
).pipe(
  Command.withDescription(
    "Ask, as the card issuer would, to authorize an amount on a test-mode card: approved exits 0, declined 3"
  )
)

/** The issuer's advice of `amount` on an authorization (0 reverses it), shown as the authorization then stands. */
const adviseTo = (authorizationId: string, amount: number, idempotencyKey: Option.Option<string>) =>
  Effect.gen(function* () {
    const connection = yield* connect
    const answer = yield* call(
      connection,
      connection.client.checkoutTestHelpers.advise({
        ...idempotencyHeaders(idempotencyKey),
        params: { id: authorizationId },
        payload: { amount }
      })
    )
    yield* show(answer, Render.cardAuthorization)
  })

const advise = Command.make(
  "advise",
  { authorizationId, ...amountFlags, idempotencyKey: idempotencyKeyFlag },
  Effect.fn(function* (input) {
    yield* adviseTo(input.authorizationId, yield* authorizationAmountOf(input), input.idempotencyKey)
  })
).pipe(Command.withDescription("The issuer's advice: the authorization's new amount, more or less than it holds"))

const reverse = Command.make("reverse", { authorizationId, idempotencyKey: idempotencyKeyFlag }, (input) =>
  adviseTo(input.authorizationId, 0, input.idempotencyKey)
).pipe(Command.withDescription("The issuer's reversal: the hold released, the intent approved again"))

const clear = Command.make(
  "clear",
  {
    authorizationId,
    amount: amountFlags.amount.pipe(Flag.withDescription("The amount cleared in major units (default: all it holds)")),
    amountMinor: amountFlags.amountMinor,
    currency: amountFlags.currency,
    idempotencyKey: idempotencyKeyFlag
  },
  Effect.fn(function* (input) {
    const whole = Option.isNone(input.amount) && Option.isNone(input.amountMinor)
    const amount = whole ? undefined : yield* authorizationAmountOf(input)
    const connection = yield* connect
    const answer = yield* call(
      connection,
      connection.client.checkoutTestHelpers.clear({
        ...idempotencyHeaders(input.idempotencyKey),
        params: { id: input.authorizationId },
        payload: amount === undefined ? {} : { amount }
      })
    )
    yield* show(answer, Render.cardAuthorization)
  })
).pipe(
  Command.withDescription(
    "The issuer's clearing: posts the amount (all the hold by default; less releases the rest), completes the intent"
  )
)

const refund = Command.make(
  "refund",
  { authorizationId, ...amountFlags, idempotencyKey: idempotencyKeyFlag },
  Effect.fn(function* (input) {
    const amount = yield* authorizationAmountOf(input)
    const connection = yield* connect
    const answer = yield* call(
      connection,
      connection.client.checkoutTestHelpers.refund({
        ...idempotencyHeaders(input.idempotencyKey),
        params: { id: input.authorizationId },
        payload: { amount }
      })
    )
    yield* show(answer, Render.cardAuthorization)
  })
).pipe(Command.withDescription("The issuer's refund of a cleared authorization, posted back to the spend account"))

const cardStatus = Command.make(
  "card-status",
  {
    cardId,
    status: Flag.Literals("status", ["active", "inactive", "closed"]).pipe(
      Flag.withDescription("The card's state at the issuer: active, inactive (frozen) or closed (for good)")
    ),
    idempotencyKey: idempotencyKeyFlag
  },
  Effect.fn(function* (input) {
    const connection = yield* connect
    const answer = yield* call(
      connection,
      connection.client.checkoutTestHelpers.cardStatus({
        ...idempotencyHeaders(input.idempotencyKey),
        params: { id: input.cardId },
        payload: { status: input.status }
      })
    )
    yield* show(answer, Render.checkoutCard)
  })
).pipe(Command.withDescription("The issuer's card event: active, inactive or closed"))

/** `svc checkout simulate ...`: test mode's card issuer (test keys only). */
const simulate = Command.make("simulate").pipe(
  Command.withDescription(
    "Play the card issuer on a test-mode card: authorize, advise, reverse, clear, refund, card-status"
  ),
  Command.withSubcommands([authorize, advise, reverse, clear, refund, cardStatus])
)

/** `svc checkout intent|card|simulate`. */
export const checkout = Command.make("checkout").pipe(
  Command.withDescription("Just-in-time cards for one purchase"),
  Command.withSubcommands([intent, card, simulate])
)
