import { X402PaymentResponse } from "@svc/adapters-http/api"
import { X402PaymentNotMade, X402ResourceFailed, x402FetchEffect } from "@svc/sdk"
import { Effect, Schema } from "effect"
import { Tool } from "effect/ai"
import { ClientRequestId, callService, ServiceClient, ToolFailure, toolHints } from "../shared/index.ts"

/** The most of a resource's answer a tool call gives back; the rest is cut (and said to be). */
const MAX_BODY_CHARACTERS = 100_000

/** Fetches a resource, paying it over x402 when it answers 402. */
export const PayForResource = Tool.make("pay_for_resource", {
  description:
    "Fetch an HTTP resource, paying for it over x402 when it answers 402 Payment Required: the team's wallet pays " +
    "once the key's policy allows it (the same budgets, limits and approvals as spending). Answers the resource's " +
    "`status`, `contentType` and `body` (text, at most 100,000 characters), and `payment` when one was asked for. " +
    "A payment the policy denies answers `paid: false` with `payment.decision.reasons`; one that needs a person's " +
    "approval answers `paid: false` and `payment.status: pending_approval`: call this tool again later with " +
    "`paymentId` set to `payment.id` to fetch the resource with that payment once approved. Pass a `clientRequestId` " +
    "and reuse it on retries so the resource is paid once. Needs spend.write.",
  parameters: Schema.Struct({
    url: Schema.String.annotate({ description: "The resource's URL (http or https)." }),
    method: Schema.optionalKey(Schema.Literals(["GET", "POST", "PUT", "PATCH", "DELETE"])).annotate({
      description: "The HTTP method, GET unless given."
    }),
    body: Schema.optionalKey(Schema.String).annotate({ description: "A request body to send, as text." }),
    paymentId: Schema.optionalKey(X402PaymentResponse.fields.id).annotate({
      description: "A payment that waited for approval: fetch the resource with it rather than asking again."
    }),
    clientRequestId: ClientRequestId
  }),
  success: Schema.Struct({
    paid: Schema.Boolean,
    status: Schema.Number,
    contentType: Schema.NullOr(Schema.String),
    body: Schema.NullOr(Schema.String),
    truncated: Schema.Boolean,
    payment: Schema.NullOr(X402PaymentResponse)
  }),
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(toolHints({ readOnly: false, destructive: true, idempotent: false, openWorld: true }))

type Parameters = typeof PayForResource.parametersSchema.Type
type Payment = typeof X402PaymentResponse.Type

const unreachable = (error: X402ResourceFailed): ToolFailure => ({
  error: "resource_unreachable",
  message: error.message,
  status: 0
})

/** The resource's answer as the tool gives it back. */
const answered = (response: Response, payment: Payment | null) =>
  Effect.promise(() => response.text()).pipe(
    Effect.map((text) => ({
      paid: payment?.paymentHeader != null,
      status: response.status,
      contentType: response.headers.get("content-type"),
      body: text.slice(0, MAX_BODY_CHARACTERS),
      truncated: text.length > MAX_BODY_CHARACTERS,
      payment
    }))
  )

const notPaid = (payment: Payment) => ({
  paid: false,
  status: 402,
  contentType: null,
  body: null,
  truncated: false,
  payment
})

const requestInit = ({ method, body }: Parameters): RequestInit => ({
  method: method ?? "GET",
  ...(body === undefined ? {} : { body })
})

/** Fetches with the payment a person approved; a payment still unsigned is answered as it is. */
const withApprovedPayment = (parameters: Parameters, paymentId: string) =>
  Effect.gen(function* () {
    const payment = yield* callService((client) => client.x402Payments.get({ params: { id: paymentId } }))
    if (payment.paymentHeader === null) return notPaid(payment)
    const header = payment.paymentHeader
    const init = requestInit(parameters)
    const response = yield* Effect.tryPromise({
      try: () => fetch(parameters.url, { ...init, headers: { [header.name]: header.value } }),
      catch: (cause) => unreachable(new X402ResourceFailed(`${parameters.url}: ${String(cause)}`))
    })
    return yield* answered(response, payment)
  })

/** Fetches, paying a 402 once the policy allows; a payment that waits for a person is answered at once. */
const paying = (parameters: Parameters) =>
  Effect.gen(function* () {
    const client = yield* ServiceClient
    let payment: Payment | null = null
    const requested = x402FetchEffect(client, {
      approval: "return",
      onPayment: (made) => {
        payment = made
      },
      ...(parameters.clientRequestId === undefined ? {} : { idempotencyKey: () => parameters.clientRequestId ?? "" })
    })(parameters.url, requestInit(parameters))
    const outcome = yield* callService(() =>
      requested.pipe(
        Effect.map((response) => ({ _tag: "answered" as const, response })),
        Effect.catchIf(
          (error): error is X402PaymentNotMade => error instanceof X402PaymentNotMade,
          (error) => Effect.succeed({ _tag: "not-made" as const, payment: error.payment })
        ),
        Effect.catchIf(
          (error): error is X402ResourceFailed => error instanceof X402ResourceFailed,
          (error) => Effect.succeed({ _tag: "unreachable" as const, error })
        )
      )
    )
    if (outcome._tag === "unreachable") return yield* Effect.fail(unreachable(outcome.error))
    if (outcome._tag === "not-made") return notPaid(outcome.payment)
    return yield* answered(outcome.response, payment)
  })

/** The payment tools' handlers. */
export const payHandlers = {
  pay_for_resource: (parameters: Parameters) =>
    parameters.paymentId === undefined ? paying(parameters) : withApprovedPayment(parameters, parameters.paymentId)
}
