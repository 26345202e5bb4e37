import { SimulatedCardIssuer } from "@svc/adapters-memory"
import {
  type AgentPrincipal,
  type CardAuthorizationRequest,
  CardAuthorizations,
  type CardAuthorizationsRepo,
  type CardIssuer,
  CardsRepo,
  Checkout,
  type CheckoutIntent,
  type CheckoutIntentsRepo,
  type CreateCheckoutIntent,
  Ledger
} from "@svc/domain"
import { Effect, Layer, Option } from "effect"
import { allTransactions } from "../ledger/LedgerSetup.ts"
import { domainOver, type Ports } from "../spend/SpendSetup.ts"

/** The ports checkout runs on; the card issuer is the simulated one, whatever the storage. */
export type CheckoutPorts = Ports | CheckoutIntentsRepo | CardsRepo | CardAuthorizationsRepo

/** Checkout and card authorizations, with the spend core and the card issuer (the simulated one), over the ports given. */
export const checkoutDomainOver = <E>(
  ports: Layer.Layer<CheckoutPorts, E>,
  issuer: Layer.Layer<CardIssuer> = SimulatedCardIssuer
) =>
  Layer.mergeAll(Checkout.layer, CardAuthorizations.layer).pipe(
    Layer.provideMerge(issuer),
    Layer.provideMerge(domainOver(ports)),
    // The same layer as inside `domainOver` (built once): it also holds the checkout ports.
    Layer.provideMerge(ports)
  )

/** The merchant every intent of the suite buys from, unless a test says otherwise. */
const MERCHANT = { name: "Acme Books", mcc: "5942", country: "US" } as const

/** An intent of 50.00 USD at MERCHANT, with whatever the test overrides. */
export const intent = (agent: AgentPrincipal, input: Partial<CreateCheckoutIntent> = {}) =>
  Checkout.use((c) =>
    c.create(agent, { amount: 5_000, currency: "USD", merchant: MERCHANT, purpose: "books for the team", ...input })
  )

/** The card of an intent as stored (its token is what the issuer's authorizations name). */
export const cardOf = (i: CheckoutIntent) =>
  Effect.map(
    CardsRepo.use((r) => r.findByIntent(i.id)),
    (card) => Option.getOrThrowWith(card, () => new Error(`intent ${i.id} has no card`))
  )

/** An approved intent with its card issued: the intent, the credentials answered once, the card's token. */
export const intentWithCard = (agent: AgentPrincipal, input: Partial<CreateCheckoutIntent> = {}) =>
  Effect.gen(function* () {
    const created = yield* intent(agent, input)
    const credentials = yield* Checkout.use((c) => c.credentials(agent, created.id))
    const card = yield* cardOf(created)
    return { intent: created, credentials, cardToken: card.token }
  })

let authorizationCount = 0

/** An authorization request on a card at MERCHANT's descriptor, with a fresh token unless given. */
export const authorization = (
  cardToken: string,
  over: Partial<Omit<CardAuthorizationRequest, "merchant">> & {
    readonly merchant?: CardAuthorizationRequest["merchant"]
  } = {}
): CardAuthorizationRequest => ({
  token: `auth_${Date.now()}_${++authorizationCount}`,
  card_token: cardToken,
  amount: 5_000,
  currency: "USD",
  merchant: { descriptor: "ACME BOOKS*ORDER 1234", mcc: MERCHANT.mcc, country: MERCHANT.country },
  ...over
})

export const authorize = (request: CardAuthorizationRequest) => CardAuthorizations.use((a) => a.authorize(request))

/** The agent's spend account balance. */
export const balanceOf = (agent: AgentPrincipal) =>
  Effect.map(
    Ledger.use((l) => l.account(agent.teamId, agent.accountId!)),
    (a) => a.balance
  )

/**
 * The team's authorization holds and their resolutions, oldest first, as `kind:amount` on the spend account: what a
 * hold reserves, what a posting posts, what a void releases.
 */
export const authorizationMoves = (agent: AgentPrincipal) =>
  Effect.map(allTransactions(agent.teamId), (txs) =>
    txs
      .filter((t) => t.code === "card_authorization")
      .toReversed()
      .map((t) => {
        const spend = t.entries.filter((e) => e.accountId === agent.accountId)
        const posted = spend.find((e) => !e.pending)
        return `${t.kind}:${posted === undefined ? Math.abs(spend[0]?.amount ?? 0) : -posted.amount}`
      })
  )
