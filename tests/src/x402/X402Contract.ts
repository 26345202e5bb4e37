import { assert, layer } from "@effect/vitest"
import { X402ChainMemory } from "@svc/adapters-memory"
import {
  type AgentPrincipal,
  paymentHeaderOf,
  SealedSecrets,
  SpendFreezes,
  type X402Payment,
  X402Payments,
  X402WalletsRepo
} from "@svc/domain"
import { Clock, Effect, type Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { recoverTypedDataAddress, verifyTypedData } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { balanceOf, ledgerOf } from "../crypto/PayoutsSetup.ts"
import { assertLedgerInvariants } from "../ledger/LedgerSetup.ts"
import { fundedAgent } from "../spend/SpendSetup.ts"
import {
  decodedHeader,
  LOCAL_TOKEN,
  paymentRequiredV2,
  RESOURCE,
  randomAddress,
  requirementV2,
  typedDataOf,
  type X402Ports,
  x402DomainOver
} from "./X402Setup.ts"

const kinds = (txs: ReadonlyArray<{ readonly kind: string }>) => txs.map((t) => t.kind).toSorted()

const pay = (agent: AgentPrincipal, requirement: Record<string, unknown> = requirementV2()) =>
  X402Payments.use((s) =>
    s.create(agent, { resourceUrl: RESOURCE, paymentRequired: paymentRequiredV2(RESOURCE, requirement) })
  )

/** Asserts the payment's signature is the team wallet's, over the authorization it shows. */
const assertSignedByWallet = (p: X402Payment) =>
  Effect.gen(function* () {
    const wallet = yield* X402Payments.use((s) => s.walletAddress(p.teamId, p.mode))
    assert.strictEqual(p.authorization?.from, wallet)
    const signer = yield* Effect.promise(() => recoverTypedDataAddress(typedDataOf(p)))
    assert.strictEqual(signer, wallet)
    assert.isTrue(yield* Effect.promise(() => verifyTypedData({ ...typedDataOf(p), address: wallet as `0x${string}` })))
  })

/** How every adapter set runs x402 payments: decided as spend, signed once approved, held, settled or released once. */
export const x402Contract = <E>(name: string, ports: Layer.Layer<X402Ports, E>) =>
  layer(x402DomainOver(ports), { timeout: "120 seconds" })(`x402 payments (${name})`, (it) => {
    it.effect(
      "under the policy's limits it holds the amount and signs a v2 header the wallet's signature recovers to",
      () =>
        Effect.gen(function* () {
          const { agent, team } = yield* fundedAgent({ funds: 10_000 })
          const now = yield* Clock.currentTimeMillis
          const requirement = requirementV2({ amount: "1234567", payTo: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" })
          const p = yield* pay(agent, requirement)
          assert.strictEqual(p.status, "signed")
          assert.strictEqual(p.amount, 124, "1.234567 dollar tokens count as 124 cents, rounded up")
          assert.strictEqual(p.tokenAmount, "1234567")
          assert.strictEqual(p.payTo, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
          assert.strictEqual(p.merchant, `x402:http://127.0.0.1:4021:0x70997970C51812dc3A010C7d01b50e0d17dc79C8`)
          assert.strictEqual(p.chainId, 31337)
          assert.strictEqual(p.asset, LOCAL_TOKEN.address)
          assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 124, available: 9_876 })
          assert.deepStrictEqual(kinds(yield* ledgerOf(agent, p.id)), ["pending"])

          const a = p.authorization!
          assert.strictEqual(a.to, p.payTo)
          assert.strictEqual(a.value, "1234567")
          assert.match(a.nonce, /^0x[0-9a-f]{64}$/u)
          assert.strictEqual(Number(a.validBefore), Math.floor(now / 1000) + 60)
          assert.isAtMost(Number(a.validAfter), Math.floor(now / 1000))
          assert.strictEqual(p.authorizationExpiresAt, new Date((Math.floor(now / 1000) + 60) * 1000).toISOString())
          yield* assertSignedByWallet(p)
          const wallet = yield* X402WalletsRepo.use((r) => r.find(team.id, "test"))
          const sealedKey = Option.getOrThrow(wallet).sealedKey
          assert.notMatch(sealedKey, /[0-9a-f]{64}/u, "the key is stored sealed")
          const key = yield* Effect.orDie(SealedSecrets.use((s) => s.open(sealedKey)))
          assert.strictEqual(privateKeyToAccount(key as `0x${string}`).address, a.from)

          const header = paymentHeaderOf(p)
          assert.strictEqual(header?.name, "PAYMENT-SIGNATURE")
          const decoded = decodedHeader({ paymentHeader: header })
          assert.strictEqual(decoded.x402Version, 2)
          assert.deepStrictEqual(decoded.accepted, requirement, "the requirement is repeated as the server sent it")
          assert.deepStrictEqual(decoded.resource, paymentRequiredV2(RESOURCE).resource)
          assert.deepStrictEqual(decoded.payload, { signature: p.signature, authorization: a })

          const read = yield* X402Payments.use((s) => s.get(team.id, "test", p.id))
          assert.deepStrictEqual(paymentHeaderOf(read), header)
          const other = yield* pay(agent)
          assert.notStrictEqual(other.authorization?.nonce, a.nonce, "every authorization has its own nonce")
          assert.strictEqual(other.authorization?.from, a.from, "one wallet a team and mode")
          yield* assertLedgerInvariants(team.id)
        })
    )

    it.effect("a v1 answer is paid with an X-PAYMENT header naming the v1 network", () =>
      Effect.gen(function* () {
        const { agent } = yield* fundedAgent({ funds: 10_000 })
        const requirement = {
          scheme: "exact",
          network: "base-sepolia",
          maxAmountRequired: "10000",
          resource: RESOURCE,
          description: "weather",
          mimeType: "application/json",
          payTo: randomAddress(),
          maxTimeoutSeconds: 300,
          asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
          extra: { name: "USDC", version: "2" }
        }
        const p = yield* X402Payments.use((s) =>
          s.create(agent, {
            resourceUrl: RESOURCE,
            paymentRequired: Buffer.from(JSON.stringify({ x402Version: 1, accepts: [requirement] })).toString("base64")
          })
        )
        assert.strictEqual(p.status, "signed")
        assert.strictEqual(p.chainId, 84532)
        assert.strictEqual(p.amount, 1)
        const header = paymentHeaderOf(p)
        assert.strictEqual(header?.name, "X-PAYMENT")
        const decoded = decodedHeader({ paymentHeader: header })
        assert.deepStrictEqual(
          { ...decoded, payload: undefined },
          { x402Version: 1, scheme: "exact", network: "base-sepolia", payload: undefined }
        )
        yield* assertSignedByWallet(p)
      })
    )

    it.effect("over the per-request limit it is denied and nothing is signed or held", () =>
      Effect.gen(function* () {
        const { agent, team } = yield* fundedAgent({ funds: 10_000, policy: { perRequestLimit: 100 } })
        const p = yield* pay(agent, requirementV2({ amount: "1010000" }))
        assert.strictEqual(p.status, "denied")
        assert.strictEqual(p.decision.reasons[0]?.code, "amount_over_limit")
        assert.isNull(p.authorization)
        assert.isNull(p.signature)
        assert.isNull(paymentHeaderOf(p))
        assert.isNull(p.holdTransactionId)
        assert.deepStrictEqual(yield* ledgerOf(agent, p.id), [])
        assert.isTrue(Option.isNone(yield* X402WalletsRepo.use((r) => r.find(team.id, "test"))), "no wallet was made")
      })
    )

    it.effect("merchant rules see the resource's origin and payTo; the kill switch denies and signs nothing", () =>
      Effect.gen(function* () {
        const payTo = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
        const { agent, approver, team } = yield* fundedAgent({
          funds: 10_000,
          policy: { blockedMerchants: [`x402:http://127.0.0.1:4021:${payTo}`] }
        })
        const blocked = yield* pay(agent, requirementV2({ payTo }))
        assert.strictEqual(blocked.status, "denied")
        assert.strictEqual(blocked.decision.reasons[0]?.code, "merchant_blocked")
        const elsewhere = yield* pay(agent, requirementV2({ payTo: randomAddress() }))
        assert.strictEqual(elsewhere.status, "signed")

        yield* SpendFreezes.use((f) => f.freeze(approver, team.id, { reason: "incident" }))
        const frozen = yield* pay(agent, requirementV2({ payTo: randomAddress() }))
        assert.strictEqual(frozen.status, "denied")
        assert.isNull(frozen.authorization)
        assert.isNull(paymentHeaderOf(frozen))
      })
    )

    it.effect("over the threshold it waits for a person, holds, and signs only once approved", () =>
      Effect.gen(function* () {
        const { agent, approver, team } = yield* fundedAgent({ funds: 100_000, policy: { approvalThreshold: 500 } })
        const service = yield* X402Payments
        const p = yield* pay(agent, requirementV2({ amount: "6000000" }))
        assert.strictEqual(p.status, "pending_approval")
        assert.isNull(p.authorization)
        assert.isNull(paymentHeaderOf(p))
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 100_000, pending: 600, available: 99_400 })

        yield* service.approve(approver, p.approval!.id, "ok")
        const approved = yield* service.get(team.id, "test", p.id)
        assert.strictEqual(approved.status, "signed")
        assert.strictEqual(approved.approval?.status, "approved")
        assert.strictEqual(paymentHeaderOf(approved)?.name, "PAYMENT-SIGNATURE")
        yield* assertSignedByWallet(approved)
        assert.deepStrictEqual(kinds(yield* ledgerOf(agent, p.id)), ["pending"])

        const other = yield* pay(agent, requirementV2({ amount: "7000000" }))
        const denied = yield* service.deny(approver, other.approval!.id, "no")
        assert.strictEqual(denied.status, "denied")
        assert.isNull((yield* service.get(team.id, "test", other.id)).authorization)
        assert.deepStrictEqual(kinds(yield* ledgerOf(agent, other.id)), ["pending", "void_pending"])
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect("two concurrent payments on a budget that fits one: one is signed, the other denied", () =>
      Effect.gen(function* () {
        const { agent, team } = yield* fundedAgent({ funds: 100_000, policy: { dailyBudget: 1_500 } })
        const results = yield* Effect.all(
          [pay(agent, requirementV2({ amount: "10000000" })), pay(agent, requirementV2({ amount: "10000000" }))],
          {
            concurrency: "unbounded"
          }
        )
        assert.deepStrictEqual(results.map((p) => p.status).toSorted(), ["denied", "signed"])
        assert.deepStrictEqual(yield* balanceOf(agent), { posted: 100_000, pending: 1_000, available: 99_000 })
        yield* assertLedgerInvariants(team.id)
      })
    )

    it.effect(
      "seen used on chain it settles and posts its hold once; unused past its deadline it expires and releases",
      () =>
        Effect.gen(function* () {
          const { agent, team } = yield* fundedAgent({ funds: 10_000 })
          const service = yield* X402Payments
          const chain = yield* X402ChainMemory
          const used = yield* pay(agent, requirementV2({ amount: "2000000", timeout: 120 }))
          const unused = yield* pay(agent, requirementV2({ amount: "3000000", timeout: 120 }))
          assert.deepStrictEqual(yield* balanceOf(agent), { posted: 10_000, pending: 500, available: 9_500 })
          yield* chain.use(
            {
              chainId: used.chainId,
              asset: used.asset,
              authorizer: used.authorization!.from,
              nonce: used.authorization!.nonce
            },
            `0x${"ab".repeat(32)}`
          )
          assert.strictEqual((yield* service.processDue).settled, 1)
          const settled = yield* service.get(team.id, "test", used.id)
          assert.strictEqual(settled.status, "settled")
          assert.strictEqual(settled.settlementTxHash, `0x${"ab".repeat(32)}`)
          assert.deepStrictEqual(kinds(yield* ledgerOf(agent, used.id)), ["pending", "post_pending"])

          yield* TestClock.adjust("120 seconds")
          yield* service.processDue
          const inGrace = yield* service.get(team.id, "test", unused.id)
          assert.strictEqual(inGrace.status, "signed", "a minute's grace after the deadline")
          yield* TestClock.adjust("61 seconds")
          assert.isAtLeast((yield* service.processDue).expired, 1)
          const expired = yield* service.get(team.id, "test", unused.id)
          assert.strictEqual(expired.status, "expired")
          assert.isNull(paymentHeaderOf(expired))
          assert.deepStrictEqual(kinds(yield* ledgerOf(agent, unused.id)), ["pending", "void_pending"])
          yield* service.processDue
          assert.deepStrictEqual(kinds(yield* ledgerOf(agent, unused.id)), ["pending", "void_pending"])
          assert.deepStrictEqual(yield* balanceOf(agent), { posted: 9_800, pending: 0, available: 9_800 })
          yield* assertLedgerInvariants(team.id)
        })
    )

    it.effect("a 402 answer it cannot pay is refused naming the field, and nothing is recorded", () =>
      Effect.gen(function* () {
        const { agent, team } = yield* fundedAgent({ funds: 10_000 })
        const service = yield* X402Payments
        const refused = (resourceUrl: string, paymentRequired: unknown) =>
          Effect.map(Effect.flip(service.create(agent, { resourceUrl, paymentRequired })), (e) =>
            e._tag === "X402PaymentInvalid" ? e.field : e._tag
          )
        const v2 = (change: Record<string, unknown>) => paymentRequiredV2(RESOURCE, { ...requirementV2(), ...change })
        const cases: ReadonlyArray<readonly [string, unknown, string]> = [
          ["ftp://example.com/x", paymentRequiredV2(RESOURCE), "resourceUrl"],
          ["not a url", paymentRequiredV2(RESOURCE), "resourceUrl"],
          [RESOURCE, 42, "paymentRequired"],
          [RESOURCE, "not base64 !", "paymentRequired"],
          [RESOURCE, { ...paymentRequiredV2(RESOURCE), x402Version: 3 }, "paymentRequired.x402Version"],
          [RESOURCE, { ...paymentRequiredV2(RESOURCE), accepts: [] }, "paymentRequired.accepts"],
          [RESOURCE, { ...paymentRequiredV2(RESOURCE), resource: undefined }, "paymentRequired.resource.url"],
          [RESOURCE, v2({ scheme: "upto" }), "paymentRequired.accepts[0].scheme"],
          [RESOURCE, v2({ network: "eip155:999" }), "paymentRequired.accepts[0].network"],
          [RESOURCE, v2({ network: "base-sepolia" }), "paymentRequired.accepts[0].network"],
          [RESOURCE, v2({ asset: randomAddress() }), "paymentRequired.accepts[0].asset"],
          [RESOURCE, v2({ amount: "0" }), "paymentRequired.accepts[0].amount"],
          [RESOURCE, v2({ amount: "1.5" }), "paymentRequired.accepts[0].amount"],
          [RESOURCE, v2({ amount: 10000 }), "paymentRequired.accepts[0].amount"],
          [RESOURCE, v2({ payTo: "0x1234" }), "paymentRequired.accepts[0].payTo"],
          [RESOURCE, v2({ payTo: "0x70997970C51812DC3a010C7d01b50e0d17dc79C8" }), "paymentRequired.accepts[0].payTo"],
          [RESOURCE, v2({ maxTimeoutSeconds: 0 }), "paymentRequired.accepts[0].maxTimeoutSeconds"],
          [RESOURCE, v2({ maxTimeoutSeconds: 3601 }), "paymentRequired.accepts[0].maxTimeoutSeconds"],
          [RESOURCE, v2({ maxTimeoutSeconds: 1.5 }), "paymentRequired.accepts[0].maxTimeoutSeconds"],
          [RESOURCE, v2({ extra: {} }), "paymentRequired.accepts[0].extra.name"],
          [RESOURCE, v2({ extra: { name: "Test USD" } }), "paymentRequired.accepts[0].extra.version"],
          [
            RESOURCE,
            v2({ extra: { name: "Test USD", version: "1", assetTransferMethod: "permit2" } }),
            "paymentRequired.accepts[0].extra.assetTransferMethod"
          ],
          [
            RESOURCE,
            { x402Version: 1, accepts: [{ ...requirementV2(), network: "eip155:31337" }] },
            "paymentRequired.accepts[0].network"
          ]
        ]
        for (const [url, answer, field] of cases) {
          assert.strictEqual(yield* refused(url, answer), field, JSON.stringify(answer))
        }
        const listed = yield* service.list(team.id, { mode: "test" }, { limit: 10, after: Option.none() })
        assert.deepStrictEqual(listed, [])
        const second = paymentRequiredV2(RESOURCE, requirementV2())
        const choosing = yield* service.create(agent, {
          resourceUrl: RESOURCE,
          paymentRequired: { ...second, accepts: [{ ...requirementV2(), scheme: "upto" }, requirementV2()] }
        })
        assert.strictEqual(choosing.status, "signed", "the first requirement it supports is paid")
      })
    )
  })
