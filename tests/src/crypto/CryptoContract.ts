import { assert, layer } from "@effect/vitest"
import { cryptoFees, type Ports } from "@svc/api"
import {
  type AgentPrincipal,
  CryptoDestinations,
  CryptoDestinationsRepo,
  CryptoFees,
  CryptoQuotes,
  CryptoQuotesRepo,
  DEFAULT_CRYPTO_FEES,
  Transactor,
  type UserId
} from "@svc/domain"
import { Clock, ConfigProvider, Effect, Exit, type Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { ADDRESSES, auditOf, cryptoOver, cryptoTeam } from "./CryptoSetup.ts"

const evmDestination = { name: "Treasury wallet", network: "base", asset: "USDC", address: ADDRESSES.evm } as const

/** A quote body for a destination, `amount` cents of USDC on base unless overridden. */
const quoteFor = (destinationId: string, amount = 10_000, more: Record<string, unknown> = {}) => ({
  amount,
  currency: "USD",
  asset: "USDC" as const,
  network: "base" as const,
  destinationId,
  ...more
})

/** The failure of an effect that must fail. */
const failure = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.flip(effect)

/** Allow-list and quotes behaviour, and their repositories, on every adapter. */
export const cryptoContract = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(cryptoOver(ports), { timeout: "60 seconds" })(`crypto destinations and quotes (${name})`, (it) => {
    it.effect("an owner allow-lists addresses per mode, stored checksummed, audited, listed newest first", () =>
      Effect.gen(function* () {
        const { team, owner } = yield* cryptoTeam()
        const destinations = yield* CryptoDestinations
        const first = yield* destinations.add(owner, { ...evmDestination, name: "  Treasury wallet " })
        assert.deepStrictEqual(
          { ...first, id: undefined, createdAt: undefined },
          {
            id: undefined,
            teamId: team.id,
            mode: "live",
            name: "Treasury wallet",
            network: "base",
            asset: "USDC",
            address: ADDRESSES.evm,
            createdBy: owner.userId,
            createdAt: undefined,
            removedAt: null
          }
        )
        const second = yield* destinations.add(owner, { ...evmDestination, address: ADDRESSES.otherEvm })
        const solana = yield* destinations.add(owner, {
          name: "Exchange",
          network: "solana",
          asset: "USDT",
          address: ADDRESSES.solana,
          mode: "test"
        })
        const page = { after: Option.none(), limit: 10 }
        assert.deepStrictEqual(
          (yield* destinations.list(team.id, "live", page)).map((d) => d.id),
          [second.id, first.id]
        )
        assert.deepStrictEqual(yield* destinations.list(team.id, "test", page), [solana])
        assert.deepStrictEqual(yield* destinations.get(team.id, first.id), first)
        assert.deepStrictEqual(yield* destinations.get(team.id, solana.id, "test"), solana)
        const audit = yield* auditOf(team.id)
        const created = audit.filter((e) => e.type === "crypto_destination.created")
        assert.deepStrictEqual(
          created.map((e) => [e.mode, e.data.id, e.data.address, e.data.createdBy]),
          [
            ["live", first.id, ADDRESSES.evm, owner.userId],
            ["live", second.id, ADDRESSES.otherEvm, owner.userId],
            ["test", solana.id, ADDRESSES.solana, owner.userId]
          ]
        )
      })
    )

    it.effect("a malformed destination names its field and leaves nothing stored or audited", () =>
      Effect.gen(function* () {
        const { team, owner } = yield* cryptoTeam()
        const destinations = yield* CryptoDestinations
        const refused = (input: Parameters<CryptoDestinations["Service"]["add"]>[1]) =>
          Effect.map(failure(destinations.add(owner, input)), (e) =>
            e._tag === "CryptoDestinationInvalid" ? e.field : e._tag
          )
        assert.strictEqual(yield* refused({ ...evmDestination, address: ADDRESSES.evm.toLowerCase() }), "address")
        assert.strictEqual(
          yield* refused({ ...evmDestination, address: "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }),
          "address"
        )
        assert.strictEqual(yield* refused({ ...evmDestination, address: ADDRESSES.solana }), "address")
        assert.strictEqual(yield* refused({ ...evmDestination, network: "solana" }), "address")
        assert.strictEqual(yield* refused({ ...evmDestination, address: "x".repeat(101) }), "address")
        assert.strictEqual(yield* refused({ ...evmDestination, name: "   " }), "name")
        assert.strictEqual(yield* refused({ ...evmDestination, name: "n".repeat(201) }), "name")
        assert.deepStrictEqual(yield* destinations.list(team.id, "live", { after: Option.none(), limit: 10 }), [])
        assert.isFalse((yield* auditOf(team.id)).some((e) => e.type.startsWith("crypto_destination.")))
      })
    )

    it.effect("only owners and admins change the allow-list; members may read it", () =>
      Effect.gen(function* () {
        const { team, owner } = yield* cryptoTeam()
        const destinations = yield* CryptoDestinations
        const member = { ...owner, userId: crypto.randomUUID() as UserId, role: "member" as const }
        const added = yield* failure(destinations.add(member, evmDestination))
        assert.deepStrictEqual(
          [added._tag, "action" in added ? added.action : ""],
          ["CryptoDestinationForbidden", "add a crypto destination"]
        )
        const destination = yield* destinations.add({ ...owner, role: "admin" }, evmDestination)
        assert.strictEqual(
          (yield* failure(destinations.remove(member, destination.id)))._tag,
          "CryptoDestinationForbidden"
        )
        assert.deepStrictEqual(yield* destinations.get(team.id, destination.id), destination)
        assert.isNull((yield* destinations.get(team.id, destination.id)).removedAt)
      })
    )

    it.effect(
      "a removed destination stays stored but is not found, listed, removed again nor quoted; removal audited",
      () =>
        Effect.gen(function* () {
          const { team, owner, liveAgent } = yield* cryptoTeam()
          const destinations = yield* CryptoDestinations
          const destination = yield* destinations.add(owner, evmDestination)
          const kept = yield* destinations.add(owner, { ...evmDestination, address: ADDRESSES.otherEvm })
          const removed = yield* destinations.remove(owner, destination.id)
          assert.isNotNull(removed.removedAt)
          assert.deepStrictEqual({ ...removed, removedAt: null }, destination)
          assert.strictEqual(
            (yield* failure(destinations.get(team.id, destination.id)))._tag,
            "CryptoDestinationNotFound"
          )
          assert.strictEqual(
            (yield* failure(destinations.remove(owner, destination.id)))._tag,
            "CryptoDestinationNotFound"
          )
          assert.deepStrictEqual(
            (yield* destinations.list(team.id, "live", { after: Option.none(), limit: 10 })).map((d) => d.id),
            [kept.id]
          )
          const stored = yield* CryptoDestinationsRepo.use((repo) => repo.find(destination.id))
          assert.deepStrictEqual(stored, Option.some(removed))
          const quoted = yield* failure(CryptoQuotes.use((q) => q.create(liveAgent, quoteFor(destination.id))))
          assert.strictEqual(quoted._tag, "CryptoDestinationNotFound")
          const audit = (yield* auditOf(team.id)).filter((e) => e.type === "crypto_destination.removed")
          assert.deepStrictEqual(
            audit.map((e) => [e.mode, e.data.id, e.data.removedBy, e.at]),
            [["live", destination.id, owner.userId, removed.removedAt]]
          )
        })
    )

    it.effect("another team's destination, one of the other mode, an unknown or malformed id is not found", () =>
      Effect.gen(function* () {
        const acme = yield* cryptoTeam("Acme")
        const globex = yield* cryptoTeam("Globex")
        const destinations = yield* CryptoDestinations
        const live = yield* destinations.add(acme.owner, evmDestination)
        const test = yield* destinations.add(acme.owner, { ...evmDestination, mode: "test" })
        for (const [teamId, id, mode] of [
          [globex.team.id, live.id, undefined],
          [acme.team.id, live.id, "test"],
          [acme.team.id, test.id, "live"],
          [acme.team.id, crypto.randomUUID(), undefined],
          [acme.team.id, "not-a-uuid", undefined]
        ] as const) {
          assert.strictEqual((yield* failure(destinations.get(teamId, id, mode)))._tag, "CryptoDestinationNotFound")
        }
        assert.strictEqual(
          (yield* failure(destinations.remove(globex.owner, live.id)))._tag,
          "CryptoDestinationNotFound"
        )
        assert.strictEqual(
          (yield* failure(destinations.remove(acme.owner, "not-a-uuid")))._tag,
          "CryptoDestinationNotFound"
        )
        const quotes = yield* CryptoQuotes
        for (const [agent, id] of [
          [acme.liveAgent, test.id],
          [acme.testAgent, live.id],
          [globex.liveAgent, live.id]
        ] as const) {
          assert.strictEqual((yield* failure(quotes.create(agent, quoteFor(id))))._tag, "CryptoDestinationNotFound")
        }
      })
    )

    it.effect("a quote takes the fees out of the amount, delivers the rest in base units and lasts 60 s", () =>
      Effect.gen(function* () {
        const { team, owner, liveAgent, testAgent } = yield* cryptoTeam()
        yield* TestClock.adjust("90 minutes")
        const now = yield* Clock.currentTimeMillis
        const destination = yield* CryptoDestinations.use((d) => d.add(owner, evmDestination))
        const quotes = yield* CryptoQuotes
        const quote = yield* quotes.create(liveAgent, quoteFor(destination.id, 100_001))
        assert.deepStrictEqual(
          { ...quote, id: undefined },
          {
            id: undefined,
            teamId: team.id,
            mode: "live",
            spendingKeyId: liveAgent.keyId,
            destinationId: destination.id,
            network: "base",
            asset: "USDC",
            address: ADDRESSES.evm,
            amount: 100_001,
            currency: "USD",
            serviceFee: 501,
            networkFee: 5,
            amountDelivered: 99_495,
            tokenAmount: "994950000",
            decimals: 6,
            expiresAt: new Date(now + 60_000).toISOString(),
            createdAt: new Date(now).toISOString(),
            payoutId: null,
            usedAt: null
          }
        )
        assert.deepStrictEqual(yield* quotes.get(liveAgent, quote.id), quote)
        assert.deepStrictEqual(yield* CryptoQuotesRepo.use((repo) => repo.find(quote.id)), Option.some(quote))
        const other = yield* cryptoTeam("Globex")
        for (const [agent, id] of [
          [testAgent, quote.id],
          [other.liveAgent, quote.id],
          [liveAgent, crypto.randomUUID()],
          [liveAgent, "nope"]
        ] as const) {
          assert.strictEqual((yield* failure(quotes.get(agent, id)))._tag, "CryptoQuoteNotFound")
        }
        const minimum = yield* quotes.create(liveAgent, quoteFor(destination.id, 106))
        assert.deepStrictEqual(
          [minimum.serviceFee, minimum.networkFee, minimum.amountDelivered, minimum.tokenAmount],
          [100, 5, 1, "10000"]
        )
        const solana = yield* CryptoDestinations.use((d) =>
          d.add(owner, { name: "Sol", network: "solana", asset: "USDT", address: ADDRESSES.solana })
        )
        const onSolana = yield* quotes.create(
          liveAgent,
          quoteFor(solana.id, 20_001, { network: "solana", asset: "USDT" })
        )
        assert.deepStrictEqual(
          [onSolana.serviceFee, onSolana.networkFee, onSolana.amountDelivered, onSolana.tokenAmount, onSolana.address],
          [101, 1, 19_899, "198990000", ADDRESSES.solana]
        )
      })
    )

    it.effect("a quote's bad input names its field", () =>
      Effect.gen(function* () {
        const { owner, liveAgent } = yield* cryptoTeam()
        const destinations = yield* CryptoDestinations
        const base = yield* destinations.add(owner, evmDestination)
        const ethereum = yield* destinations.add(owner, { ...evmDestination, network: "ethereum" })
        const quotes = yield* CryptoQuotes
        const fieldOf = (agent: AgentPrincipal, input: ReturnType<typeof quoteFor>) =>
          Effect.map(failure(quotes.create(agent, input)), (e) => (e._tag === "CryptoQuoteInvalid" ? e.field : e._tag))
        for (const amount of [0, -5, 10.5, Number.NaN, 105]) {
          assert.strictEqual(yield* fieldOf(liveAgent, quoteFor(base.id, amount)), "amount", `${amount}`)
        }
        assert.strictEqual(yield* fieldOf(liveAgent, quoteFor(ethereum.id, 400, { network: "ethereum" })), "amount")
        assert.strictEqual(yield* fieldOf(liveAgent, quoteFor(base.id, 10_000, { currency: "EUR" })), "currency")
        assert.strictEqual(yield* fieldOf(liveAgent, quoteFor(base.id, 10_000, { asset: "USDT" })), "asset")
        assert.strictEqual(
          yield* fieldOf(liveAgent, quoteFor(ethereum.id, 10_000, { network: "ethereum", asset: "USDT" })),
          "destinationId"
        )
        assert.strictEqual(yield* fieldOf(liveAgent, quoteFor(ethereum.id)), "destinationId")
        assert.strictEqual(yield* fieldOf(liveAgent, quoteFor(crypto.randomUUID())), "CryptoDestinationNotFound")
        assert.strictEqual(yield* fieldOf(liveAgent, quoteFor("not-a-uuid")), "CryptoDestinationNotFound")
        const ok = yield* quotes.create(liveAgent, quoteFor(ethereum.id, 401, { network: "ethereum" }))
        assert.strictEqual(ok.amountDelivered, 1)
      })
    )

    it.effect("fees come from the configured schedule: a layer's, or the environment's", () =>
      Effect.gen(function* () {
        const { owner, liveAgent } = yield* cryptoTeam()
        const destination = yield* CryptoDestinations.use((d) => d.add(owner, evmDestination))
        const custom = {
          serviceFeeBps: 125,
          serviceFeeMinimum: 0,
          networkFees: { ...DEFAULT_CRYPTO_FEES.networkFees, base: 7 }
        }
        const quotes = yield* CryptoQuotes.make.pipe(Effect.provideService(CryptoFees, custom))
        const quote = yield* quotes.create(liveAgent, quoteFor(destination.id, 801))
        assert.deepStrictEqual([quote.serviceFee, quote.networkFee, quote.amountDelivered], [11, 7, 783])
        const fromEnv = (env: Record<string, string>) =>
          Effect.map(CryptoFees, (schedule) => schedule).pipe(
            Effect.provide(cryptoFees),
            Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env)))
          )
        assert.deepStrictEqual(yield* fromEnv({}), DEFAULT_CRYPTO_FEES)
        assert.deepStrictEqual(
          yield* fromEnv({
            CRYPTO_FEE_BPS: "30",
            CRYPTO_FEE_MINIMUM: "250",
            CRYPTO_NETWORK_FEE_ETHEREUM: "120",
            CRYPTO_NETWORK_FEE_SOLANA: "0"
          }),
          {
            serviceFeeBps: 30,
            serviceFeeMinimum: 250,
            networkFees: { ...DEFAULT_CRYPTO_FEES.networkFees, ethereum: 120, solana: 0 }
          }
        )
        for (const bad of [
          { CRYPTO_FEE_BPS: "-1" },
          { CRYPTO_FEE_BPS: "10001" },
          { CRYPTO_FEE_MINIMUM: "1.5" },
          { CRYPTO_NETWORK_FEE_BASE: "cheap" }
        ]) {
          assert.isTrue(Exit.isFailure(yield* Effect.exit(fromEnv(bad))), JSON.stringify(bad))
        }
      })
    )

    it.effect("a quote is used once: locked and marked in a transaction, a second use finds it used", () =>
      Effect.gen(function* () {
        const { owner, liveAgent } = yield* cryptoTeam()
        const destination = yield* CryptoDestinations.use((d) => d.add(owner, evmDestination))
        const quote = yield* CryptoQuotes.use((q) => q.create(liveAgent, quoteFor(destination.id)))
        const repo = yield* CryptoQuotesRepo
        const transactor = yield* Transactor
        const payoutId = crypto.randomUUID()
        const usedAt = "2026-11-27T10:00:30.000Z"
        const use = (id: string) =>
          transactor.withTransaction(
            Effect.gen(function* () {
              const locked = yield* repo.lock(quote.id)
              assert.isTrue(Option.isSome(locked))
              return yield* repo.markUsed(quote.id, id, usedAt)
            })
          )
        const used = yield* use(payoutId)
        assert.deepStrictEqual(used, Option.some({ ...quote, payoutId, usedAt }))
        assert.deepStrictEqual(yield* use(crypto.randomUUID()), Option.none())
        assert.deepStrictEqual(yield* repo.find(quote.id), used)
        assert.deepStrictEqual(yield* repo.lock(quote.id), used)
        const unknown = crypto.randomUUID() as typeof quote.id
        assert.deepStrictEqual(yield* repo.lock(unknown), Option.none())
        assert.deepStrictEqual(yield* repo.markUsed(unknown, crypto.randomUUID(), usedAt), Option.none())
        assert.deepStrictEqual(yield* CryptoQuotes.use((q) => q.get(liveAgent, quote.id)), Option.getOrThrow(used))
      })
    )

    it.effect("of concurrent uses of one quote, exactly one records its payout", () =>
      Effect.gen(function* () {
        const { owner, liveAgent } = yield* cryptoTeam()
        const destination = yield* CryptoDestinations.use((d) => d.add(owner, evmDestination))
        const quote = yield* CryptoQuotes.use((q) => q.create(liveAgent, quoteFor(destination.id)))
        const repo = yield* CryptoQuotesRepo
        const transactor = yield* Transactor
        const payouts: ReadonlyArray<string> = Array.from({ length: 4 }, () => crypto.randomUUID())
        const outcomes = yield* Effect.forEach(
          payouts,
          (payoutId) =>
            transactor.withTransaction(
              Effect.gen(function* () {
                const locked = yield* repo.lock(quote.id)
                if (Option.isNone(locked) || locked.value.usedAt !== null) return "seen used"
                const used = yield* repo.markUsed(quote.id, payoutId, "2026-11-27T10:00:30.000Z")
                return Option.isSome(used) ? payoutId : "lost"
              })
            ),
          { concurrency: "unbounded" }
        )
        const winners = outcomes.filter((o) => payouts.includes(o))
        assert.strictEqual(winners.length, 1, JSON.stringify(outcomes))
        assert.deepStrictEqual(
          outcomes.filter((o) => !payouts.includes(o)),
          ["seen used", "seen used", "seen used"]
        )
        assert.strictEqual(Option.getOrThrow(yield* repo.find(quote.id)).payoutId, winners[0])
      })
    )

    it.effect("a failed transaction leaves a quote unused", () =>
      Effect.gen(function* () {
        const { owner, liveAgent } = yield* cryptoTeam()
        const destination = yield* CryptoDestinations.use((d) => d.add(owner, evmDestination))
        const quote = yield* CryptoQuotes.use((q) => q.create(liveAgent, quoteFor(destination.id)))
        const repo = yield* CryptoQuotesRepo
        const exit = yield* Effect.exit(
          Transactor.use((t) =>
            t.withTransaction(
              Effect.andThen(
                repo.markUsed(quote.id, crypto.randomUUID(), "2026-11-27T10:00:30.000Z"),
                Effect.fail("boom")
              )
            )
          )
        )
        assert.isTrue(Exit.isFailure(exit))
        assert.deepStrictEqual(yield* repo.find(quote.id), Option.some(quote))
      })
    )
  })
