import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import type { AgentPrincipal } from "../access/model.ts"
import { isoOfMillis, newId, type PersistenceUnavailable, PositiveAmountMinor } from "../shared/index.ts"
import { CryptoDestinations } from "./CryptoDestinations.ts"
import { CryptoQuotesRepo } from "./CryptoRepos.ts"
import type { CryptoDestinationNotFound } from "./Destination.ts"
import { type CryptoFeeSchedule, DEFAULT_CRYPTO_FEES, quoteFees, tokenBaseUnits } from "./Fees.ts"
import { ASSET_DECIMALS, type CryptoAsset, type CryptoNetwork, NETWORK_ASSETS, networkCarries } from "./Network.ts"
import { type CryptoQuote, CryptoQuoteId, CryptoQuoteInvalid, CryptoQuoteNotFound, QUOTE_TTL_SECONDS } from "./Quote.ts"

/** The fees quotes charge, read when `CryptoQuotes` is built: `DEFAULT_CRYPTO_FEES` unless a layer (the app's configuration, a test) sets them. */
export const CryptoFees = Context.Reference<CryptoFeeSchedule>("@svc/domain/CryptoFees", {
  defaultValue: () => DEFAULT_CRYPTO_FEES
})

/** What an agent asks a quote for: `amount` US cents, fees included, paid out as `asset` on `network` to a destination. */
export interface CreateCryptoQuote {
  readonly amount: number
  readonly currency: string
  readonly asset: CryptoAsset
  readonly network: CryptoNetwork
  readonly destinationId: string
}

/**
 * Quotes for payouts to the allow-list: the fees of the team's schedule come out of the amount, the rest is delivered in
 * the asset's base units; valid `QUOTE_TTL_SECONDS`. A quote is seen by its team in its mode only.
 */
export class CryptoQuotes extends Context.Service<
  CryptoQuotes,
  {
    /**
     * A new quote for the agent's team and mode; the destination must be on that team's allow-list in that mode
     * (not found otherwise) and of the quote's network and asset.
     */
    readonly create: (
      agent: AgentPrincipal,
      input: CreateCryptoQuote
    ) => Effect.Effect<CryptoQuote, CryptoQuoteInvalid | CryptoDestinationNotFound | PersistenceUnavailable>
    /** The agent's team's quote of the agent's mode. */
    readonly get: (
      agent: AgentPrincipal,
      id: string
    ) => Effect.Effect<CryptoQuote, CryptoQuoteNotFound | PersistenceUnavailable>
  }
>()("@svc/domain/CryptoQuotes") {
  static readonly make = Effect.gen(function* () {
    const repo = yield* CryptoQuotesRepo
    const destinations = yield* CryptoDestinations
    const schedule = yield* CryptoFees

    const invalid = (field: string, message: string) => new CryptoQuoteInvalid({ field, message })

    const create = Effect.fn("CryptoQuotes.create")(function* (agent: AgentPrincipal, input: CreateCryptoQuote) {
      if (!Schema.is(PositiveAmountMinor)(input.amount)) {
        return yield* invalid("amount", "expected a positive integer amount in US cents")
      }
      if (input.currency !== "USD") return yield* invalid("currency", "crypto payouts are quoted in USD only")
      if (!networkCarries(input.network, input.asset)) {
        return yield* invalid(
          "asset",
          `${input.network} carries ${NETWORK_ASSETS[input.network].join(", ")}, not ${input.asset}`
        )
      }
      const destination = yield* destinations.get(agent.teamId, input.destinationId, agent.mode)
      if (destination.network !== input.network || destination.asset !== input.asset) {
        return yield* invalid(
          "destinationId",
          `the destination takes ${destination.asset} on ${destination.network}, not ${input.asset} on ${input.network}`
        )
      }
      const fees = quoteFees(schedule, input.network, input.amount)
      if (fees.amountDelivered <= 0) {
        return yield* invalid(
          "amount",
          `too small for the fees: the service fee is ${fees.serviceFee} and the network fee ${fees.networkFee} cents`
        )
      }
      const now = yield* Clock.currentTimeMillis
      const quote: CryptoQuote = {
        id: yield* newId(CryptoQuoteId),
        teamId: agent.teamId,
        mode: agent.mode,
        spendingKeyId: agent.keyId,
        destinationId: destination.id,
        network: destination.network,
        asset: destination.asset,
        address: destination.address,
        amount: input.amount,
        currency: "USD",
        serviceFee: fees.serviceFee,
        networkFee: fees.networkFee,
        amountDelivered: fees.amountDelivered,
        tokenAmount: tokenBaseUnits(destination.asset, fees.amountDelivered),
        decimals: ASSET_DECIMALS[destination.asset],
        expiresAt: isoOfMillis(now + QUOTE_TTL_SECONDS * 1000),
        createdAt: isoOfMillis(now),
        payoutId: null,
        usedAt: null
      }
      yield* repo.insert(quote)
      return quote
    })

    const get = Effect.fn("CryptoQuotes.get")(function* (agent: AgentPrincipal, id: string) {
      const found = Schema.is(CryptoQuoteId)(id) ? yield* repo.find(id) : Option.none<CryptoQuote>()
      if (Option.isNone(found) || found.value.teamId !== agent.teamId || found.value.mode !== agent.mode) {
        return yield* new CryptoQuoteNotFound({ id })
      }
      return found.value
    })

    return CryptoQuotes.of({ create, get })
  })
  static readonly layer = Layer.effect(CryptoQuotes, CryptoQuotes.make)
}
