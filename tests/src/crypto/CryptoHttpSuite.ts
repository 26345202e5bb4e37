import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import type { TeamId } from "@svc/domain"
import { type Context, Effect, type Layer } from "effect"
import { assertInvalid, type Client, setUpKeyedTeam, withAppOnPorts } from "../support/HttpScenarios.ts"
import { testConfig } from "../support/InProcessApp.ts"
import { memberToken } from "../support/TeamMembers.ts"
import { ADDRESSES } from "./CryptoSetup.ts"

const DESTINATIONS = "/treasury/crypto/destinations"
const QUOTES = "/v1/crypto/quotes"

const evmBody = { name: "Treasury wallet", network: "base", asset: "USDC", address: ADDRESSES.evm }

/** A team through the API: its id, owner session, a test key and a live key. */
const setUp = async (app: Client) => {
  const team = await setUpKeyedTeam(app)
  const live = await app.call("POST", "/treasury/spending-keys", {
    token: team.owner,
    body: { name: "live agent", mode: "live", policy: {} }
  })
  assert.strictEqual(live.status, 201)
  return { ...team, liveKey: live.body.secret as string }
}

/** Adds a destination as `token`, asserting the 201. */
const addDestination = async (app: Client, token: string, body: Record<string, unknown> = evmBody) => {
  const answer = await app.call("POST", DESTINATIONS, { token, body })
  assert.strictEqual(answer.status, 201, JSON.stringify(answer.body))
  return answer.body
}

const quoteBody = (destinationId: string, more: Record<string, unknown> = {}) => ({
  amount: 10_000,
  currency: "USD",
  asset: "USDC",
  network: "base",
  destinationId,
  ...more
})

/** The allow-list and quotes over HTTP, on whichever ports the caller provides. */
export const cryptoHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`crypto over HTTP (${name})`, (it) => {
    const run = <A, E2>(context: Context.Context<Ports>, effect: Effect.Effect<A, E2, Ports>) =>
      Effect.runPromise(Effect.provide(effect, context))

    it.effect("an owner allow-lists, lists by mode, reads and removes destinations; the audit log records both", () =>
      withAppOnPorts(async (app) => {
        const team = await setUp(app)
        const added = await addDestination(app, team.owner)
        assert.deepStrictEqual(added, {
          id: added.id,
          object: "crypto_destination",
          mode: "live",
          name: "Treasury wallet",
          network: "base",
          asset: "USDC",
          address: ADDRESSES.evm,
          createdBy: added.createdBy,
          createdAt: added.createdAt,
          removedAt: null
        })
        const solana = await addDestination(app, team.owner, {
          name: "Exchange",
          network: "solana",
          asset: "USDT",
          address: ADDRESSES.solana,
          mode: "test"
        })
        const live = await app.call("GET", DESTINATIONS, { token: team.owner })
        assert.deepStrictEqual(live.body, {
          data: [added],
          meta: { cursor: null, hasNextPage: false, hasPreviousPage: false }
        })
        const newer = await addDestination(app, team.owner, { ...evmBody, address: ADDRESSES.otherEvm })
        const first = await app.call("GET", `${DESTINATIONS}?limit=1`, { token: team.owner })
        assert.deepStrictEqual(first.body.data, [newer])
        assert.isTrue(first.body.meta.hasNextPage)
        const next = await app.call("GET", `${DESTINATIONS}?limit=1&cursor=${first.body.meta.cursor}`, {
          token: team.owner
        })
        assert.deepStrictEqual(next.body, {
          data: [added],
          meta: { cursor: null, hasNextPage: false, hasPreviousPage: true }
        })
        await app.call("DELETE", `${DESTINATIONS}/${newer.id}`, { token: team.owner })
        const test = await app.call("GET", `${DESTINATIONS}?mode=test`, { token: team.owner })
        assert.deepStrictEqual(test.body.data, [solana])
        assert.deepStrictEqual(
          (await app.call("GET", `${DESTINATIONS}/${added.id}`, { token: team.owner })).body,
          added
        )

        const removed = await app.call("DELETE", `${DESTINATIONS}/${added.id}`, { token: team.owner })
        assert.strictEqual(removed.status, 200)
        assert.deepStrictEqual({ ...removed.body, removedAt: null }, added)
        assert.isString(removed.body.removedAt)
        for (const method of ["GET", "DELETE"]) {
          const gone = await app.call(method, `${DESTINATIONS}/${added.id}`, { token: team.owner })
          assert.deepStrictEqual([gone.status, gone.body.error], [404, "not_found"], method)
        }
        assert.deepStrictEqual((await app.call("GET", DESTINATIONS, { token: team.owner })).body.data, [])

        const audit = await app.call("GET", "/treasury/audit", { token: team.owner })
        assert.strictEqual(audit.status, 200)
        const entries = audit.body.data.filter((e: { type: string }) => e.type.startsWith("crypto_destination."))
        assert.deepStrictEqual(
          entries.map((e: { type: string; data: { id: string } }) => [e.type, e.data.id]),
          [
            ["crypto_destination.removed", added.id],
            ["crypto_destination.removed", newer.id],
            ["crypto_destination.created", newer.id],
            ["crypto_destination.created", solana.id],
            ["crypto_destination.created", added.id]
          ]
        )
      })
    )

    it.effect("a malformed destination is a 400 naming its field", () =>
      withAppOnPorts(async (app) => {
        const team = await setUp(app)
        const post = (body: Record<string, unknown>) => app.call("POST", DESTINATIONS, { token: team.owner, body })
        assertInvalid(await post({ ...evmBody, address: "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }), "address")
        assertInvalid(await post({ ...evmBody, address: ADDRESSES.evm.toLowerCase() }), "address")
        assertInvalid(await post({ ...evmBody, address: ADDRESSES.solana }), "address")
        assertInvalid(await post({ ...evmBody, network: "solana" }), "address")
        assertInvalid(
          await post({ ...evmBody, network: "solana", address: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4w" }),
          "address"
        )
        assertInvalid(await post({ ...evmBody, network: "bitcoin" }), "network")
        assertInvalid(await post({ ...evmBody, asset: "DAI" }), "asset")
        assertInvalid(await post({ ...evmBody, mode: "sandbox" }), "mode")
        assertInvalid(await post({ ...evmBody, name: "   " }), "name")
        assertInvalid(await post({ network: "base", asset: "USDC", address: ADDRESSES.evm }), "name")
        const bad = await app.call("GET", `${DESTINATIONS}/not-a-uuid`, { token: team.owner })
        assert.strictEqual(bad.status, 400)
        assert.deepStrictEqual((await app.call("GET", DESTINATIONS, { token: team.owner })).body.data, [])
      })
    )

    it.effect("members read the allow-list but get 403 adding or removing; another team gets 404", () =>
      withAppOnPorts(async (app, context) => {
        const team = await setUp(app)
        const other = await setUp(app)
        const member = (await run(context, memberToken(team.id as TeamId, "member"))).token
        const admin = (await run(context, memberToken(team.id as TeamId, "admin"))).token
        const refused = await app.call("POST", DESTINATIONS, { token: member, body: evmBody })
        assert.deepStrictEqual([refused.status, refused.body.error], [403, "forbidden"])
        const added = await addDestination(app, admin)
        assert.strictEqual((await app.call("GET", `${DESTINATIONS}/${added.id}`, { token: member })).status, 200)
        assert.strictEqual((await app.call("GET", DESTINATIONS, { token: member })).body.data.length, 1)
        const remove = await app.call("DELETE", `${DESTINATIONS}/${added.id}`, { token: member })
        assert.deepStrictEqual([remove.status, remove.body.error], [403, "forbidden"])
        for (const method of ["GET", "DELETE"]) {
          const answer = await app.call(method, `${DESTINATIONS}/${added.id}`, { token: other.owner })
          assert.strictEqual(answer.status, 404, method)
        }
        assert.strictEqual((await app.call("DELETE", `${DESTINATIONS}/${added.id}`, { token: admin })).status, 200)
        assert.strictEqual((await app.call("POST", DESTINATIONS, { body: evmBody })).status, 401)
        assert.strictEqual((await app.call("POST", DESTINATIONS, { token: team.key, body: evmBody })).status, 401)
      })
    )

    it.effect("an agent quotes to its mode's destination; the other mode and other teams get 404", () =>
      withAppOnPorts(async (app) => {
        const team = await setUp(app)
        const other = await setUp(app)
        const test = await addDestination(app, team.owner, { ...evmBody, mode: "test" })
        const live = await addDestination(app, team.owner)
        const created = await app.call("POST", QUOTES, {
          token: team.key,
          body: quoteBody(test.id, { amount: 100_001 })
        })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        const quote = created.body
        assert.deepStrictEqual(quote, {
          id: quote.id,
          object: "crypto_quote",
          mode: "test",
          destinationId: test.id,
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
          expiresAt: quote.expiresAt,
          createdAt: quote.createdAt,
          payoutId: null,
          usedAt: null
        })
        assert.strictEqual(Date.parse(quote.expiresAt) - Date.parse(quote.createdAt), 60_000)
        assert.deepStrictEqual((await app.call("GET", `${QUOTES}/${quote.id}`, { token: team.key })).body, quote)
        for (const token of [team.liveKey, other.key]) {
          const hidden = await app.call("GET", `${QUOTES}/${quote.id}`, { token })
          assert.deepStrictEqual([hidden.status, hidden.body.error], [404, "not_found"])
        }
        const liveOnTest = await app.call("POST", QUOTES, { token: team.liveKey, body: quoteBody(test.id) })
        assert.deepStrictEqual([liveOnTest.status, liveOnTest.body.error], [404, "not_found"])
        assert.match(liveOnTest.body.message, /destinationId/u)
        assert.strictEqual(
          (await app.call("POST", QUOTES, { token: team.liveKey, body: quoteBody(live.id) })).status,
          201
        )
        assert.strictEqual((await app.call("POST", QUOTES, { token: other.key, body: quoteBody(test.id) })).status, 404)
        await app.call("DELETE", `${DESTINATIONS}/${test.id}`, { token: team.owner })
        const removed = await app.call("POST", QUOTES, { token: team.key, body: quoteBody(test.id) })
        assert.strictEqual(removed.status, 404)
        assert.strictEqual((await app.call("GET", `${QUOTES}/${quote.id}`, { token: team.key })).status, 200)
      })
    )

    it.effect("a quote's bad input is a 400 naming its field", () =>
      withAppOnPorts(async (app) => {
        const team = await setUp(app)
        const destination = await addDestination(app, team.owner, { ...evmBody, mode: "test" })
        const post = (more: Record<string, unknown>) =>
          app.call("POST", QUOTES, { token: team.key, body: quoteBody(destination.id, more) })
        for (const amount of [0, -1, 10.5, 105, "100"]) assertInvalid(await post({ amount }), "amount")
        assertInvalid(await post({ currency: "EUR" }), "currency")
        assertInvalid(await post({ network: "ethereum" }), "destinationId")
        assertInvalid(await post({ asset: "USDT" }), "destinationId")
        assertInvalid(await post({ asset: "DAI" }), "asset")
        assertInvalid(await post({ network: "tron" }), "network")
        assertInvalid(await post({ destinationId: "nope" }), "destinationId")
        const missing = await post({ destinationId: crypto.randomUUID() })
        assert.strictEqual(missing.status, 404)
        const ok = await post({ amount: 106 })
        assert.deepStrictEqual([ok.status, ok.body.amountDelivered, ok.body.tokenAmount], [201, 1, "10000"])
      })
    )

    it.effect("an Idempotency-Key replays the first quote; without one each call quotes anew", () =>
      withAppOnPorts(async (app) => {
        const team = await setUp(app)
        const destination = await addDestination(app, team.owner, { ...evmBody, mode: "test" })
        const key = crypto.randomUUID()
        const post = (headers: Record<string, string>, body = quoteBody(destination.id)) =>
          app.call("POST", QUOTES, { token: team.key, body, headers })
        const first = await post({ "idempotency-key": key })
        assert.strictEqual(first.status, 201)
        const replay = await post({ "idempotency-key": key })
        assert.deepStrictEqual([replay.status, replay.body], [201, first.body])
        assert.strictEqual(replay.headers.get("idempotent-replayed"), "true")
        const reused = await post({ "idempotency-key": key }, quoteBody(destination.id, { amount: 20_000 }))
        assert.strictEqual(reused.status, 422)
        const [a, b] = [await post({}), await post({})]
        assert.deepStrictEqual([a.status, b.status], [201, 201])
        assert.notStrictEqual(a.body.id, b.body.id)
        assert.notStrictEqual(a.body.id, first.body.id)
      })
    )

    it.effect("a team API key needs spend.write to quote and spend.read to read", () =>
      withAppOnPorts(async (app) => {
        const team = await setUp(app)
        const destination = await addDestination(app, team.owner, { ...evmBody, mode: "test" })
        const apiKey = async (scopes: ReadonlyArray<string>) =>
          (
            await app.call("POST", "/treasury/team-api-keys", {
              token: team.owner,
              body: { name: "scoped", mode: "test", scopes }
            })
          ).body.secret as string
        const reader = await apiKey(["spend.read"])
        const writer = await apiKey(["spend.write"])
        const refused = await app.call("POST", QUOTES, { token: reader, body: quoteBody(destination.id) })
        assert.strictEqual(refused.status, 403)
        const quote = await app.call("POST", QUOTES, { token: writer, body: quoteBody(destination.id) })
        assert.strictEqual(quote.status, 201)
        assert.strictEqual((await app.call("GET", `${QUOTES}/${quote.body.id}`, { token: reader })).status, 200)
        assert.strictEqual((await app.call("GET", `${QUOTES}/${quote.body.id}`, { token: writer })).status, 403)
      })
    )

    it.effect("the fees are the app's configuration (CRYPTO_FEE_BPS, CRYPTO_FEE_MINIMUM, CRYPTO_NETWORK_FEE_*)", () =>
      withAppOnPorts(
        async (app) => {
          const team = await setUp(app)
          const destination = await addDestination(app, team.owner, { ...evmBody, mode: "test" })
          const quote = await app.call("POST", QUOTES, {
            token: team.key,
            body: quoteBody(destination.id, { amount: 801 })
          })
          assert.strictEqual(quote.status, 201, JSON.stringify(quote.body))
          assert.deepStrictEqual(
            [quote.body.serviceFee, quote.body.networkFee, quote.body.amountDelivered],
            [11, 7, 783]
          )
        },
        testConfig,
        { CRYPTO_FEE_BPS: "125", CRYPTO_FEE_MINIMUM: "0", CRYPTO_NETWORK_FEE_BASE: "7" }
      )
    )
  })
