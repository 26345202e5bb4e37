import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import { Effect, type Layer } from "effect"
import { recoverTypedDataAddress } from "viem"
import { type Client, setUpKeyedTeam, withAppOnPorts } from "../support/HttpScenarios.ts"
import { testConfig } from "../support/InProcessApp.ts"
import { EIP3009_TYPES } from "./X402Setup.ts"

const PAYMENTS = "/v1/x402/payments"
const RESOURCE = "https://api.example.com/weather"

/** A v2 402 answer for Base Sepolia USDC (a token the service pays in by default) of `amount` minor units. */
const answerOf = (amount: string) => ({
  x402Version: 2,
  resource: { url: RESOURCE, description: "weather", mimeType: "application/json" },
  accepts: [
    {
      scheme: "exact",
      network: "eip155:84532",
      amount,
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      maxTimeoutSeconds: 60,
      extra: { name: "USDC", version: "2" }
    }
  ]
})

const pay = (app: Client, key: string, body: unknown, idempotencyKey: string = crypto.randomUUID()) =>
  app.call("POST", PAYMENTS, { token: key, body, headers: { "idempotency-key": idempotencyKey } })

/** The signer of the payment header's authorization. */
const signerOf = (header: { readonly value: string }) => {
  const payload = JSON.parse(Buffer.from(header.value, "base64").toString("utf8")).payload
  const a = payload.authorization
  return recoverTypedDataAddress({
    domain: {
      name: "USDC",
      version: "2",
      chainId: 84532,
      verifyingContract: "0x036CbD53842c5426634e7929541eC2318f3dCF7e"
    },
    types: EIP3009_TYPES,
    primaryType: "TransferWithAuthorization",
    message: { ...a, value: BigInt(a.value), validAfter: BigInt(a.validAfter), validBefore: BigInt(a.validBefore) },
    signature: payload.signature
  })
}

/** /v1/x402/payments and /v1/x402/wallet, and approvals of x402 payments, on whichever ports the caller provides. */
export const x402HttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`x402 payments over HTTP (${name})`, (it) => {
    it.effect(
      "201 signed with its header; a retry with the same Idempotency-Key replays it and signs nothing again",
      () =>
        withAppOnPorts(async (app) => {
          const team = await setUpKeyedTeam(app, { funds: 10_000 })
          const idempotencyKey = crypto.randomUUID()
          const first = await pay(
            app,
            team.key,
            { resourceUrl: RESOURCE, paymentRequired: answerOf("250000") },
            idempotencyKey
          )
          assert.strictEqual(first.status, 201, JSON.stringify(first.body))
          assert.strictEqual(first.body.object, "x402_payment")
          assert.strictEqual(first.body.status, "signed")
          assert.strictEqual(first.body.amount, 25)
          assert.strictEqual(first.body.paymentHeader.name, "PAYMENT-SIGNATURE")
          assert.notProperty(first.body, "signature")
          assert.notProperty(first.body, "accepted")

          const again = await pay(
            app,
            team.key,
            { resourceUrl: RESOURCE, paymentRequired: answerOf("250000") },
            idempotencyKey
          )
          assert.strictEqual(again.status, 201)
          assert.deepStrictEqual(again.body, first.body)
          const listed = await app.call("GET", PAYMENTS, { token: team.key })
          assert.strictEqual(listed.status, 200)
          assert.deepStrictEqual(
            listed.body.data.map((p: { id: string }) => p.id),
            [first.body.id]
          )
          assert.notProperty(listed.body.data[0], "paymentHeader")

          const wallet = await app.call("GET", "/v1/x402/wallet", { token: team.key })
          assert.deepStrictEqual(wallet.body, {
            object: "x402_wallet",
            mode: "test",
            address: first.body.authorization.from
          })
          assert.strictEqual(await signerOf(first.body.paymentHeader), wallet.body.address)
          const read = await app.call("GET", `${PAYMENTS}/${first.body.id}`, { token: team.key })
          assert.deepStrictEqual(read.body.paymentHeader, first.body.paymentHeader)
          const balance = (await app.call("GET", "/v1/balance", { token: team.key })).body
          assert.deepStrictEqual([balance.pending, balance.available], [25, 9_975])
        })
    )

    it.effect("over the threshold: 201 pending without a header; approved in the treasury, GET answers it", () =>
      withAppOnPorts(async (app) => {
        const team = await setUpKeyedTeam(app, { funds: 100_000, policy: { approvalThreshold: 100 } })
        const pending = await pay(app, team.key, { resourceUrl: RESOURCE, paymentRequired: answerOf("5000000") })
        assert.strictEqual(pending.status, 201, JSON.stringify(pending.body))
        assert.strictEqual(pending.body.status, "pending_approval")
        assert.isNull(pending.body.paymentHeader)
        const approved = await app.call("POST", `/treasury/approvals/${pending.body.approval.id}/approve`, {
          token: team.owner,
          body: {}
        })
        assert.strictEqual(approved.status, 200, JSON.stringify(approved.body))
        assert.deepStrictEqual([approved.body.subjectType, approved.body.subject.status], ["x402_payment", "signed"])
        const read = await app.call("GET", `${PAYMENTS}/${pending.body.id}`, { token: team.key })
        assert.strictEqual(read.body.status, "signed")
        assert.strictEqual(read.body.paymentHeader.name, "PAYMENT-SIGNATURE")
        assert.strictEqual(await signerOf(read.body.paymentHeader), read.body.authorization.from)
      })
    )

    it.effect("the local chain's token is paid once X402_LOCAL_TOKEN names it", () => {
      const token = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
      const local = (app: Client, key: string) =>
        pay(app, key, {
          resourceUrl: RESOURCE,
          paymentRequired: {
            ...answerOf("1000"),
            accepts: [
              {
                ...answerOf("1000").accepts[0],
                network: "eip155:31337",
                asset: token,
                extra: { name: "Test USD", version: "1" }
              }
            ]
          }
        })
      return withAppOnPorts(async (app) => {
        const team = await setUpKeyedTeam(app, { funds: 10_000 })
        const refused = await local(app, team.key)
        assert.strictEqual(refused.status, 400)
        assert.include(JSON.stringify(refused.body), "paymentRequired.accepts[0].asset")
      }).pipe(
        Effect.andThen(
          withAppOnPorts(
            async (app) => {
              const team = await setUpKeyedTeam(app, { funds: 10_000 })
              const paid = await local(app, team.key)
              assert.strictEqual(paid.status, 201, JSON.stringify(paid.body))
              assert.deepStrictEqual([paid.body.status, paid.body.chainId, paid.body.asset], ["signed", 31337, token])
            },
            testConfig,
            { X402_LOCAL_TOKEN: token }
          )
        )
      )
    })

    it.effect("400 names the field of the 402 answer it cannot pay; 404 for another team's payment", () =>
      withAppOnPorts(async (app) => {
        const team = await setUpKeyedTeam(app, { funds: 10_000 })
        const answer = answerOf("1000")
        const bad = await pay(app, team.key, {
          resourceUrl: RESOURCE,
          paymentRequired: { ...answer, accepts: [{ ...answer.accepts[0], payTo: "0x1234" }] }
        })
        assert.strictEqual(bad.status, 400)
        assert.include(JSON.stringify(bad.body), "paymentRequired.accepts[0].payTo")
        const missing = await pay(app, team.key, { resourceUrl: RESOURCE })
        assert.strictEqual(missing.status, 400)
        const paid = await pay(app, team.key, { resourceUrl: RESOURCE, paymentRequired: answer })
        const other = await setUpKeyedTeam(app, { funds: 10_000 })
        const foreign = await app.call("GET", `${PAYMENTS}/${paid.body.id}`, { token: other.key })
        assert.strictEqual(foreign.status, 404)
      })
    )
  })
