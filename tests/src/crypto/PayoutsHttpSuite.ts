import { assert, layer } from "@effect/vitest"
import { makeSimulatedRail } from "@svc/adapters-memory"
import type { Ports } from "@svc/api"
import {
  AgentKeys,
  CryptoDestinationId,
  CryptoPayouts,
  CryptoQuoteId,
  CryptoQuotesRepo,
  isoOfMillis,
  Ledger,
  PayoutRail
} from "@svc/domain"
import { type Context, Effect, Layer, Option } from "effect"
import { type Client, setUpKeyedTeam, withAppOnPorts } from "../support/HttpScenarios.ts"
import { testConfig } from "../support/InProcessApp.ts"
import { ADDRESSES } from "./CryptoSetup.ts"

const PAYOUTS = "/v1/crypto/payouts"

/** The app's worker runs once at start and then hourly: the tests run its rounds themselves. */
const config = { ...testConfig, cryptoWorkerIntervalSeconds: 3_600 }

/** A team through the API with a test destination on base; `policy` on its key, `funds` on its account. */
const setUp = async (app: Client, options: Parameters<typeof setUpKeyedTeam>[1] = { funds: 100_000 }) => {
  const team = await setUpKeyedTeam(app, options)
  const destination = await app.call("POST", "/treasury/crypto/destinations", {
    token: team.owner,
    body: { name: "Supplier", network: "base", asset: "USDC", address: ADDRESSES.evm, mode: "test" }
  })
  assert.strictEqual(destination.status, 201, JSON.stringify(destination.body))
  return { ...team, destinationId: destination.body.id as string }
}

type Team = Awaited<ReturnType<typeof setUp>>

const quote = async (app: Client, team: Team, amount = 10_000) => {
  const answer = await app.call("POST", "/v1/crypto/quotes", {
    token: team.key,
    body: { amount, currency: "USD", asset: "USDC", network: "base", destinationId: team.destinationId },
    headers: { "idempotency-key": crypto.randomUUID() }
  })
  assert.strictEqual(answer.status, 201, JSON.stringify(answer.body))
  return answer.body as { id: string; amount: number; tokenAmount: string }
}

const payOut = (app: Client, key: string, body: unknown, idempotencyKey: string = crypto.randomUUID()) =>
  app.call("POST", PAYOUTS, { token: key, body, headers: { "idempotency-key": idempotencyKey } })

const cancel = (app: Client, key: string, id: string) =>
  app.call("POST", `${PAYOUTS}/${id}/cancel`, { token: key, headers: { "idempotency-key": crypto.randomUUID() } })

const balanceOf = async (app: Client, key: string) => {
  const { posted, pending, available } = (await app.call("GET", "/v1/balance", { token: key })).body
  return { posted, pending, available }
}

/** /v1/crypto/payouts and the treasury's approvals and ledger of payouts, on whichever ports the caller provides. */
export const payoutsHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`crypto payouts over HTTP (${name})`, (it) => {
    const run = <A, E2>(context: Context.Context<Ports>, effect: Effect.Effect<A, E2, Ports>) =>
      Effect.runPromise(Effect.provide(effect, context))

    /** A payout worker over the same storage with its own simulated rail: each call runs one round. */
    const workerOver = (context: Context.Context<Ports>) => {
      const rail = Layer.succeed(PayoutRail, Effect.runSync(makeSimulatedRail()))
      return () =>
        run(
          context,
          CryptoPayouts.use((s) => s.processDue).pipe(
            Effect.provide(CryptoPayouts.layer.pipe(Layer.provide(Layer.merge(Ledger.layer, rail))))
          )
        )
    }

    it.effect("a quote is paid out: 201 held, read, listed, submitted and confirmed; the ledger shows its hash", () =>
      withAppOnPorts(async (app, context) => {
        const workerRound = workerOver(context)
        const team = await setUp(app)
        const q = await quote(app, team, 10_000)
        const created = await payOut(app, team.key, { quoteId: q.id })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        const p = created.body
        assert.deepStrictEqual(p, {
          id: p.id,
          object: "crypto_payout",
          mode: "test",
          status: "pending",
          quoteId: q.id,
          destinationId: team.destinationId,
          network: "base",
          asset: "USDC",
          address: ADDRESSES.evm,
          amount: 10_000,
          currency: "USD",
          serviceFee: p.serviceFee,
          networkFee: p.networkFee,
          amountDelivered: 10_000 - p.serviceFee - p.networkFee,
          tokenAmount: q.tokenAmount,
          decimals: 6,
          decision: { outcome: "approved", reasons: [], policyVersions: { spendingKey: 1, team: null } },
          approval: null,
          txHash: null,
          failureReason: null,
          quoteExpiresAt: p.quoteExpiresAt,
          submittedAt: null,
          completedAt: null,
          createdAt: p.createdAt,
          updatedAt: p.createdAt
        })
        assert.deepStrictEqual(await balanceOf(app, team.key), { posted: 100_000, pending: 10_000, available: 90_000 })
        const usedQuote = await app.call("GET", `/v1/crypto/quotes/${q.id}`, { token: team.key })
        assert.strictEqual(usedQuote.body.payoutId, p.id)

        await workerRound()
        const submitted = await app.call("GET", `${PAYOUTS}/${p.id}`, { token: team.key })
        assert.strictEqual(submitted.status, 200)
        assert.strictEqual(submitted.body.status, "submitted")
        assert.match(submitted.body.txHash, /^0x[0-9a-f]{64}$/u)
        assert.notProperty(submitted.body, "payload")
        const listed = await app.call("GET", `${PAYOUTS}?status=submitted`, { token: team.key })
        assert.strictEqual(listed.status, 200)
        assert.deepStrictEqual(
          listed.body.data.map((x: { id: string }) => x.id),
          [p.id]
        )
        assert.notProperty(listed.body.data[0], "payload")
        assert.deepStrictEqual((await app.call("GET", `${PAYOUTS}?status=pending`, { token: team.key })).body.data, [])

        await workerRound()
        const confirmed = (await app.call("GET", `${PAYOUTS}/${p.id}`, { token: team.key })).body
        assert.strictEqual(confirmed.status, "confirmed")
        assert.strictEqual(confirmed.txHash, submitted.body.txHash)
        assert.deepStrictEqual(await balanceOf(app, team.key), { posted: 90_000, pending: 0, available: 90_000 })
        const ledger = await app.call("GET", "/treasury/ledger", { token: team.owner })
        const rows = ledger.body.data.filter((tx: { reference: string }) => tx.reference === p.id)
        assert.deepStrictEqual(
          rows.map((tx: { kind: string; code: string; txHash: string }) => [tx.kind, tx.code, tx.txHash]).toSorted(),
          [
            ["pending", "crypto_payout", confirmed.txHash],
            ["post_pending", "crypto_payout", confirmed.txHash]
          ]
        )
        const deposit = ledger.body.data.find((tx: { code: string }) => tx.code !== "crypto_payout")
        assert.notProperty(deposit, "txHash")

        const late = await cancel(app, team.key, p.id)
        assert.deepStrictEqual([late.status, late.body.error], [409, "payout_not_pending"])
      }, config)
    )

    it.effect(
      "an Idempotency-Key replays the payout; the quote used, expired, unknown or another team's is refused",
      () =>
        withAppOnPorts(async (app, context) => {
          const team = await setUp(app)
          const other = await setUp(app)
          const q = await quote(app, team, 2_000)
          const key = crypto.randomUUID()
          const first = await payOut(app, team.key, { quoteId: q.id }, key)
          const replay = await payOut(app, team.key, { quoteId: q.id }, key)
          assert.deepStrictEqual([first.status, replay.status], [201, 201])
          assert.deepStrictEqual(replay.body, first.body)
          const again = await payOut(app, team.key, { quoteId: q.id })
          assert.deepStrictEqual([again.status, again.body.error], [409, "quote_used"])
          assert.deepStrictEqual(await balanceOf(app, team.key), { posted: 100_000, pending: 2_000, available: 98_000 })

          const agent = await run(
            context,
            AgentKeys.use((k) => k.authenticate(team.key)).pipe(
              Effect.map(Option.getOrThrow),
              Effect.provide(AgentKeys.layer.pipe(Layer.provide(Ledger.layer)))
            )
          )
          const expiredId = CryptoQuoteId.make(crypto.randomUUID())
          const past = Date.now() - 1_000
          await run(
            context,
            CryptoQuotesRepo.use((r) =>
              r.insert({
                id: expiredId,
                teamId: agent.teamId,
                mode: "test",
                spendingKeyId: agent.keyId,
                destinationId: CryptoDestinationId.make(team.destinationId),
                network: "base",
                asset: "USDC",
                address: ADDRESSES.evm,
                amount: 1_000,
                currency: "USD",
                serviceFee: 100,
                networkFee: 5,
                amountDelivered: 895,
                tokenAmount: "8950000",
                decimals: 6,
                expiresAt: isoOfMillis(past),
                createdAt: isoOfMillis(past - 60_000),
                payoutId: null,
                usedAt: null
              })
            )
          )
          const expired = await payOut(app, team.key, { quoteId: expiredId })
          assert.deepStrictEqual([expired.status, expired.body.error], [409, "quote_expired"])

          const theirs = await quote(app, other, 1_000)
          for (const quoteId of [theirs.id, crypto.randomUUID()]) {
            const refused = await payOut(app, team.key, { quoteId })
            assert.deepStrictEqual([refused.status, refused.body.error], [404, "not_found"])
          }
          const bad = await payOut(app, team.key, { quoteId: "nope" })
          assert.strictEqual(bad.status, 400)
          assert.isTrue(JSON.stringify(bad.body).includes("quoteId"), JSON.stringify(bad.body))
          const missing = await payOut(app, team.key, {})
          assert.strictEqual(missing.status, 400)
          assert.isTrue(JSON.stringify(missing.body).includes("quoteId"), JSON.stringify(missing.body))
          const noKey = await app.call("POST", PAYOUTS, { token: team.key, body: { quoteId: q.id } })
          assert.strictEqual(noKey.status, 400)
          const unknown = await app.call("GET", `${PAYOUTS}/${crypto.randomUUID()}`, { token: team.key })
          assert.deepStrictEqual([unknown.status, unknown.body.error], [404, "not_found"])
          const hidden = await app.call("GET", `${PAYOUTS}/${first.body.id}`, { token: other.key })
          assert.strictEqual(hidden.status, 404)
          assert.strictEqual((await app.call("GET", PAYOUTS, { token: other.key })).body.data.length, 0)
          assert.strictEqual((await app.call("GET", PAYOUTS)).status, 401)
        }, config)
    )

    it.effect(
      "cancel releases the hold once; canceling again, or an unknown payout, is refused; webhooks subscribe",
      () =>
        withAppOnPorts(async (app) => {
          const team = await setUp(app)
          const p = (await payOut(app, team.key, { quoteId: (await quote(app, team, 3_000)).id })).body
          const canceled = await cancel(app, team.key, p.id)
          assert.strictEqual(canceled.status, 200, JSON.stringify(canceled.body))
          assert.strictEqual(canceled.body.status, "canceled")
          assert.deepStrictEqual(await balanceOf(app, team.key), { posted: 100_000, pending: 0, available: 100_000 })
          const again = await cancel(app, team.key, p.id)
          assert.deepStrictEqual([again.status, again.body.error], [409, "payout_not_pending"])
          const unknown = await cancel(app, team.key, crypto.randomUUID())
          assert.strictEqual(unknown.status, 404)
          const endpoint = await app.call("POST", "/treasury/webhook-endpoints", {
            token: team.owner,
            body: {
              url: "https://hooks.example.com/payouts",
              eventTypes: ["crypto_payout.created", "crypto_payout.confirmed", "crypto_payout.failed"]
            }
          })
          assert.strictEqual(endpoint.status, 201, JSON.stringify(endpoint.body))
          assert.strictEqual((await cancel(app, team.key, "nope")).status, 400)
        }, config)
    )

    it.effect(
      "over the threshold a payout waits in the treasury's approvals; approve queues it, deny releases it",
      () =>
        withAppOnPorts(async (app, context) => {
          const workerRound = workerOver(context)
          const team = await setUp(app, { funds: 100_000, policy: { approvalThreshold: 5_000 } })
          const big = (await payOut(app, team.key, { quoteId: (await quote(app, team, 6_000)).id })).body
          const other = (await payOut(app, team.key, { quoteId: (await quote(app, team, 7_000)).id })).body
          assert.deepStrictEqual([big.status, other.status], ["pending_approval", "pending_approval"])
          assert.deepStrictEqual(await balanceOf(app, team.key), {
            posted: 100_000,
            pending: 13_000,
            available: 87_000
          })
          const queue = await app.call("GET", "/treasury/approvals?status=pending", { token: team.owner })
          assert.strictEqual(queue.status, 200)
          const subjects = queue.body.data.map((a: { subjectType: string; subject: { id: string } }) => [
            a.subjectType,
            a.subject.id
          ])
          assert.deepStrictEqual(
            subjects.toSorted(),
            [
              ["crypto_payout", big.id],
              ["crypto_payout", other.id]
            ].toSorted()
          )
          const approved = await app.call("POST", `/treasury/approvals/${big.approval.id}/approve`, {
            token: team.owner,
            body: {}
          })
          assert.strictEqual(approved.status, 200, JSON.stringify(approved.body))
          assert.deepStrictEqual(
            [approved.body.subjectType, approved.body.subject.status],
            ["crypto_payout", "pending"]
          )
          const denied = await app.call("POST", `/treasury/approvals/${other.approval.id}/deny`, {
            token: team.owner,
            body: { note: "no" }
          })
          assert.deepStrictEqual(
            [denied.status, denied.body.subjectType, denied.body.subject.status],
            [200, "crypto_payout", "denied"]
          )
          const twice = await app.call("POST", `/treasury/approvals/${other.approval.id}/approve`, {
            token: team.owner,
            body: {}
          })
          assert.strictEqual(twice.status, 409)
          await workerRound()
          await workerRound()
          assert.strictEqual(
            (await app.call("GET", `${PAYOUTS}/${big.id}`, { token: team.key })).body.status,
            "confirmed"
          )
          assert.deepStrictEqual(await balanceOf(app, team.key), { posted: 94_000, pending: 0, available: 94_000 })
        }, config)
    )
  })
