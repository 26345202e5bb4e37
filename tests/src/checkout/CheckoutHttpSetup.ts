import { assert } from "@effect/vitest"
import { CardsRepo, type CheckoutIntentId, luhnValid } from "@svc/domain"
import { Effect, Option } from "effect"
import { sign } from "../support/WebhooksHarness.ts"

/** The auth-stream's path. */
export const AUTH_STREAM = "/webhook/card-issuing-a/auth-stream"

/** A checkout intent's body: 25.00 USD at Acme Books, with `overrides`. */
export const intentBody = (overrides: Record<string, unknown> = {}) => ({
  amount: 2_500,
  currency: "USD",
  merchant: { name: "Acme Books", url: "https://acme-books.example", mcc: "5942", country: "US" },
  purpose: "a book on double-entry bookkeeping",
  ...overrides
})

/** The issuer's authorization request for `cardToken`: `amount` at Acme Books, a fresh token unless given. */
export const authorizationRequest = (
  cardToken: string,
  amount: number,
  overrides: Record<string, unknown> = {}
): Record<string, unknown> => ({
  token: `auth_${crypto.randomUUID()}`,
  card_token: cardToken,
  amount,
  currency: "USD",
  merchant: { descriptor: "ACME BOOKS #42", mcc: "5942", country: "US" },
  ...overrides
})

/** The body and Standard Webhooks headers of an auth-stream request, signed with the card-issuing-a secret. */
export const signedAuthorization = async (request: unknown, options: Parameters<typeof sign>[2] = {}) => {
  const body = typeof request === "string" ? request : JSON.stringify(request)
  return { body, headers: await sign("card-issuing-a/auth-stream", body, options) }
}

/** The issuer's token of the card issued for an intent (what its authorizations name). */
export const cardTokenOf = (intentId: string) =>
  Effect.flatMap(
    CardsRepo.use((cards) => cards.findByIntent(intentId as CheckoutIntentId)),
    (card) => Effect.fromOption(Option.map(card, (c) => c.token))
  )

/** Asserts the first answer of a card's credentials: a Luhn-valid number ending in `last4`, a 3-digit CVC. */
export const assertFullCredentials = (credentials: Record<string, unknown>) => {
  const number = String(credentials.number)
  assert.isTrue(luhnValid(number), number)
  assert.strictEqual(credentials.last4, number.slice(-4))
  assert.match(String(credentials.cvc), /^[0-9]{3}$/u)
}
