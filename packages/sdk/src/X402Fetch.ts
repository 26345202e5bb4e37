import { Effect } from "effect"
import type { Client } from "./Client.ts"
import { untilDecided, type WaitOptions } from "./Decision.ts"
import type { PromiseClient } from "./PromiseClient.ts"
import type { X402Payment } from "./Shapes.ts"

/**
 * An x402 payment the fetch could not make: the key's policy denied it, its approval expired or was canceled, or it
 * still waits for a person (when the caller chose not to wait, or the wait ended). `payment` says which and why
 * (`payment.decision.reasons`).
 */
export class X402PaymentNotMade extends Error {
  override readonly name = "X402PaymentNotMade"
  readonly payment: X402Payment
  constructor(payment: X402Payment) {
    super(
      payment.status === "pending_approval"
        ? `the payment of ${payment.resourceUrl} waits for a person's approval (payment ${payment.id})`
        : `the payment of ${payment.resourceUrl} was not made: ${payment.status} (payment ${payment.id})`
    )
    this.payment = payment
  }
}

/** The resource could not be reached, or its 402 answer could not be read. */
export class X402ResourceFailed extends Error {
  override readonly name = "X402ResourceFailed"
}

export interface X402FetchOptions {
  /** The fetch the resource is reached with; the global one unless given. */
  readonly fetch?: typeof globalThis.fetch
  /**
   * What to do when the payment waits for a person: `wait` (the default) reads it until decided, as `wait` says;
   * `return` fails at once with `X402PaymentNotMade` carrying the pending payment, which the caller reads later
   * (`x402Payments.get`) for its `paymentHeader` once a person approved it.
   */
  readonly approval?: "wait" | "return"
  readonly wait?: WaitOptions<X402Payment>
  /**
   * The `Idempotency-Key` of the payment a call asks for: a fresh UUID per call unless given. A call retried with the
   * same key pays once: the service answers the first payment again.
   */
  readonly idempotencyKey?: (request: Request) => string
  /** Called with the payment once it is signed, before the resource is asked again with it (e.g. to record it). */
  readonly onPayment?: (payment: X402Payment) => void
}

/** The two calls a paying fetch makes to the service, over either client. */
interface X402Calls<E> {
  readonly create: (
    key: string,
    payload: { readonly resourceUrl: string; readonly paymentRequired: string | Record<string, unknown> }
  ) => Effect.Effect<X402Payment, E>
  readonly read: (id: string) => Effect.Effect<X402Payment, E>
}

const resource = (what: string, run: () => Promise<Response>) =>
  Effect.tryPromise({
    try: run,
    catch: (cause) => new X402ResourceFailed(`${what}: ${cause instanceof Error ? cause.message : String(cause)}`)
  })

/** The 402's payment requirements: the v2 `PAYMENT-REQUIRED` header as sent, else the v1 JSON body. */
const paymentRequiredOf = (answer: Response) => {
  const header = answer.headers.get("payment-required")
  return header !== null
    ? Effect.succeed<string | Record<string, unknown>>(header)
    : Effect.tryPromise({
        try: () => answer.json() as Promise<Record<string, unknown>>,
        catch: () => new X402ResourceFailed(`${answer.url} answered 402 without payment requirements`)
      })
}

const payingFetch =
  <E>(calls: X402Calls<E>, options: X402FetchOptions) =>
  (input: RequestInfo | URL, init?: RequestInit) =>
    Effect.gen(function* () {
      const fetchResource = options.fetch ?? globalThis.fetch
      const request = new Request(input, init)
      const first = yield* resource(request.url, () => fetchResource(request.clone()))
      if (first.status !== 402) return first
      const paymentRequired = yield* paymentRequiredOf(first)
      const key = options.idempotencyKey?.(request) ?? crypto.randomUUID()
      let payment = yield* calls.create(key, { resourceUrl: request.url, paymentRequired })
      if (payment.status === "pending_approval" && options.approval !== "return") {
        payment = yield* untilDecided(calls.read(payment.id), options.wait ?? {})
      }
      if (payment.paymentHeader === null) return yield* Effect.fail(new X402PaymentNotMade(payment))
      options.onPayment?.(payment)
      const paid = new Request(request)
      paid.headers.set(payment.paymentHeader.name, payment.paymentHeader.value)
      return yield* resource(request.url, () => fetchResource(paid))
    })

/**
 * A fetch that pays for what it fetches over x402, governed by the service: a resource that answers 402 is paid by the
 * team's wallet once the key's policy allows it (`POST /v1/x402/payments`), and the request is sent again with the
 * payment header. A payment that waits for a person is waited for (or refused at once, as `approval` says); one the
 * policy denies rejects with `X402PaymentNotMade` and nothing is signed. Any other answer is returned as it is, and
 * so is the paid retry's, whatever its status. A failed call to the service rejects with its `ApiError`.
 */
export const x402Fetch = (client: PromiseClient, options: X402FetchOptions = {}) => {
  const call = <A>(run: () => Promise<A>) => Effect.tryPromise({ try: run, catch: (error) => error })
  const pay = payingFetch(
    {
      create: (key, payload) =>
        call(() => client.x402Payments.create({ headers: { "idempotency-key": key }, payload })),
      read: (id) => call(() => client.x402Payments.get({ params: { id } }))
    },
    options
  )
  return (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => Effect.runPromise(pay(input, init))
}

/** `x402Fetch` over the Effect client: the same paying fetch, as an Effect failing with the client's errors. */
export const x402FetchEffect = (client: Client, options: X402FetchOptions = {}) =>
  payingFetch(
    {
      create: (key, payload) => client.x402Payments.create({ headers: { "idempotency-key": key }, payload }),
      read: (id) => client.x402Payments.get({ params: { id } })
    },
    options
  )
