import { makeSimulatedRail, type SimulatedRailOptions } from "@svc/adapters-memory"
import {
  type AgentPrincipal,
  CryptoDestinationId,
  type CryptoDestinationsRepo,
  type CryptoNetwork,
  CryptoPayouts,
  type CryptoPayoutsRepo,
  type CryptoQuote,
  CryptoQuoteId,
  type CryptoQuotesRepo,
  CryptoDestinationsRepo as DestinationsRepo,
  isoOfMillis,
  Ledger,
  PayoutRail,
  CryptoQuotesRepo as QuotesRepo,
  type TeamPrincipal
} from "@svc/domain"
import { Clock, Effect, Layer, Ref } from "effect"
import { allTransactions } from "../ledger/LedgerSetup.ts"
import { domainOver, type Ports } from "../spend/SpendSetup.ts"

/** The ports crypto payouts run on. */
export type PayoutPorts = Ports | CryptoPayoutsRepo | CryptoQuotesRepo | CryptoDestinationsRepo

/** What a counting rail saw: every call to `prepare` and `broadcast`, by transaction hash. */
export interface RailCalls {
  readonly prepared: ReadonlyArray<string>
  readonly broadcasts: ReadonlyArray<{ readonly txHash: string; readonly payload: string }>
}

/**
 * A simulated rail that counts its calls; while `crash` is set, a broadcast dies before it reaches the network, as a
 * process killed between storing a submission and broadcasting it.
 */
export const countingRail = (options: SimulatedRailOptions = {}) =>
  Effect.gen(function* () {
    const inner = yield* makeSimulatedRail(options)
    const calls = yield* Ref.make<RailCalls>({ prepared: [], broadcasts: [] })
    const crash = yield* Ref.make(false)
    const rail = PayoutRail.of({
      prepare: (transfer) =>
        Effect.tap(inner.prepare(transfer), (p) =>
          Ref.update(calls, (c) => ({ ...c, prepared: [...c.prepared, p.txHash] }))
        ),
      broadcast: (network, prepared) =>
        Effect.gen(function* () {
          if (yield* Ref.get(crash)) return yield* Effect.die(new Error("the process died before broadcasting"))
          yield* Ref.update(calls, (c) => ({
            ...c,
            broadcasts: [...c.broadcasts, { txHash: prepared.txHash, payload: prepared.payload }]
          }))
          return yield* inner.broadcast(network, prepared)
        }),
      status: inner.status
    })
    return { rail, calls: Ref.get(calls), crash: (on: boolean) => Ref.set(crash, on) }
  })

/** Crypto payouts over the ports and the spend core, with `rail`. */
export const payoutsDomainOver = <E>(ports: Layer.Layer<PayoutPorts, E>, rail: Layer.Layer<PayoutRail>) =>
  CryptoPayouts.layer.pipe(
    Layer.provideMerge(rail),
    Layer.provideMerge(domainOver(ports)),
    // The same layer as inside `domainOver` (built once): it also holds the crypto ports.
    Layer.provideMerge(ports)
  )

/** A fresh EVM-looking address. */
const evmAddress = () =>
  `0x${Array.from(crypto.getRandomValues(new Uint8Array(20)), (b) => b.toString(16).padStart(2, "0")).join("")}`

/** An allow-listed destination of the agent's team and a quote of `amount` cents to it, stored as the quote service would. */
export const seedQuote = (
  agent: AgentPrincipal,
  approver: TeamPrincipal,
  opts: {
    readonly amount?: number
    readonly network?: CryptoNetwork
    readonly address?: string
    readonly ttlSeconds?: number
    readonly removed?: boolean
  } = {}
) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const amount = opts.amount ?? 1_000
    const network = opts.network ?? "base"
    const address = opts.address ?? evmAddress()
    const destinationId = CryptoDestinationId.make(crypto.randomUUID())
    yield* DestinationsRepo.use((r) =>
      r.insert({
        id: destinationId,
        teamId: agent.teamId,
        mode: agent.mode,
        name: "supplier",
        network,
        asset: "USDC",
        address,
        createdBy: approver.userId,
        createdAt: isoOfMillis(now),
        removedAt: opts.removed === true ? isoOfMillis(now) : null
      })
    )
    const serviceFee = Math.min(50, amount - 2)
    const networkFee = 1
    const amountDelivered = amount - serviceFee - networkFee
    const quote: CryptoQuote = {
      id: CryptoQuoteId.make(crypto.randomUUID()),
      teamId: agent.teamId,
      mode: agent.mode,
      spendingKeyId: agent.keyId,
      destinationId,
      network,
      asset: "USDC",
      address,
      amount,
      currency: "USD",
      serviceFee,
      networkFee,
      amountDelivered,
      tokenAmount: (BigInt(amountDelivered) * 10_000n).toString(),
      decimals: 6,
      expiresAt: isoOfMillis(now + (opts.ttlSeconds ?? 60) * 1000),
      createdAt: isoOfMillis(now),
      payoutId: null,
      usedAt: null
    }
    yield* QuotesRepo.use((r) => r.insert(quote))
    return quote
  })

/** Pays a fresh quote of `amount` out. */
export const payOut = (agent: AgentPrincipal, approver: TeamPrincipal, amount = 1_000) =>
  Effect.flatMap(seedQuote(agent, approver, { amount }), (q) =>
    CryptoPayouts.use((s) => s.create(agent, { quoteId: q.id }))
  )

export const balanceOf = (agent: AgentPrincipal) =>
  Effect.map(
    Ledger.use((l) => l.account(agent.teamId, agent.accountId!)),
    (a) => a.balance
  )

/** The ledger transactions of a payout (its hold, and the posting or release of it). */
export const ledgerOf = (agent: AgentPrincipal, payoutId: string) =>
  Effect.map(allTransactions(agent.teamId), (txs) => txs.filter((tx) => tx.reference === payoutId))
