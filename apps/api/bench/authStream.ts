/**
 * Card authorizations for the auth-stream scenarios: approved checkout intents with their cards issued through the
 * API, spread over the bench agents (so that authorizations do not all queue on one account), and each
 * authorization's request signed the way the issuer signs it (Standard Webhooks, the card-issuing-a secret).
 */

import { Webhook } from "standardwebhooks"

/** The card-issuing-a secret the service is started with and the requests are signed with. */
export const CARD_ISSUING_SECRET = `whsec_${Buffer.from("bench-card-issuing-secret-32-bytes!").toString("base64")}`

/** The amount of every intent and authorization, in cents. */
const AMOUNT = 1_000
const MERCHANT = { name: "Bench Store", mcc: "5734", country: "US" }

/** A card issued for an approved intent, as the issuer knows it. */
export interface BenchCard {
  readonly token: string
}

const post = async (base: string, path: string, token: string, body: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "idempotency-key": crypto.randomUUID()
    },
    body: JSON.stringify(body)
  })
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`)
  return (await response.json()) as Record<string, unknown>
}

/**
 * `count` approved intents with a card each, created `parallel` at a time in turn by `agentSecrets`; `tokenOf` reads
 * the issuer's token of a card id (the agent sees the card's number, the issuer's authorizations name its token).
 */
export const prepareCards = async (
  base: string,
  agentSecrets: ReadonlyArray<string>,
  count: number,
  tokenOf: (cardIds: ReadonlyArray<string>) => Promise<ReadonlyMap<string, string>>,
  parallel = 32
): Promise<Array<BenchCard>> => {
  const cardIds: Array<string> = []
  for (let start = 0; start < count; start += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - start) }, (_, i) => start + i)
    cardIds.push(
      ...(await Promise.all(
        batch.map(async (i) => {
          const secret = agentSecrets[i % agentSecrets.length] ?? ""
          const intent = await post(base, "/v1/checkout/intents", secret, {
            amount: AMOUNT,
            currency: "USD",
            merchant: MERCHANT,
            purpose: "benchmark"
          })
          if (intent.status !== "approved") throw new Error(`intent ${String(intent.id)} is ${String(intent.status)}`)
          const credentials = await post(base, `/v1/checkout/intents/${String(intent.id)}/credentials`, secret, {})
          return String(credentials.cardId)
        })
      ))
    )
  }
  const tokens = await tokenOf(cardIds)
  return cardIds.map((id) => {
    const token = tokens.get(id)
    if (token === undefined) throw new Error(`no issuer token for card ${id}`)
    return { token }
  })
}

/** The signed auth-stream request of one authorization of `card` for the intent's amount, at the merchant. */
export const authorizationRequest = (
  card: BenchCard
): { readonly headers: Record<string, string>; readonly body: string } => {
  const id = `msg_${crypto.randomUUID()}`
  const body = JSON.stringify({
    token: `auth_${crypto.randomUUID()}`,
    card_token: card.token,
    amount: AMOUNT,
    currency: "USD",
    merchant: { descriptor: "BENCH STORE 0042", mcc: MERCHANT.mcc, country: MERCHANT.country }
  })
  const now = new Date()
  return {
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": new Webhook(CARD_ISSUING_SECRET).sign(id, now, body)
    },
    body
  }
}
