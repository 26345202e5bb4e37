import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import { AccountId, LedgerRepo, newId, nowIso, PaymentCodesRepo } from "@svc/domain"
import { type Context, Effect, type Layer } from "effect"
import { assertInvalid, balance, withAppOnPorts } from "../support/HttpScenarios.ts"
import { testConfig } from "../support/InProcessApp.ts"
import { actOnTransfer, sendTransfer, setUpTransferTeam } from "./TransfersHttpSetup.ts"

const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

/** The /v1/transfers and treasury-approval scenarios over HTTP, on whichever ports the caller provides. */
export const transfersHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(`book transfers over HTTP (${name})`, (it) => {
    const run = <A, E2>(context: Context.Context<Ports>, effect: Effect.Effect<A, E2, Ports>) =>
      Effect.runPromise(Effect.provide(effect, context))

    it.effect("a transfer is accepted, another declined, another canceled; each side sees its own view", () =>
      withAppOnPorts(async (app) => {
        const acme = await setUpTransferTeam(app, { funds: 10_000 })
        const globex = await setUpTransferTeam(app)

        const created = await sendTransfer(app, acme.key, {
          to: { address: globex.address },
          amount: 1_500,
          currency: "USD",
          memo: "invoice 7"
        })
        assert.strictEqual(created.status, 201, JSON.stringify(created.body))
        const sent = created.body
        assert.deepStrictEqual(sent, {
          id: sent.id,
          object: "transfer",
          mode: "test",
          direction: "outgoing",
          status: "pending_acceptance",
          amount: 1_500,
          currency: "USD",
          memo: "invoice 7",
          from: { address: acme.address },
          to: { address: globex.address, paymentCode: null },
          decision: { outcome: "approved", reasons: [], policyVersions: { spendingKey: 1, team: null } },
          approval: null,
          expiresAt: sent.expiresAt,
          createdAt: sent.createdAt,
          updatedAt: sent.createdAt
        })
        assert.strictEqual(Date.parse(sent.expiresAt) - Date.parse(sent.createdAt), 7 * 86_400_000)
        assert.deepStrictEqual(await balance(app, acme.key), { posted: 10_000, pending: 1_500, available: 8_500 })

        const incoming = await app.call("GET", "/v1/transfers?direction=incoming", { token: globex.key })
        assert.strictEqual(incoming.status, 200)
        assert.deepStrictEqual(
          incoming.body.data.map((t: { id: string }) => t.id),
          [sent.id]
        )
        const seen = incoming.body.data[0]
        assert.strictEqual(seen.direction, "incoming")
        assert.isNull(seen.decision, "only the sender sees its policy's decision")
        assert.deepStrictEqual((await app.call("GET", `/v1/transfers/${sent.id}`, { token: globex.key })).body, seen)
        assert.deepStrictEqual(
          (await app.call("GET", "/v1/transfers?direction=outgoing", { token: globex.key })).body.data,
          []
        )

        const accepted = await actOnTransfer(app, globex.key, sent.id, "accept")
        assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
        assert.strictEqual(accepted.body.status, "completed")
        assert.strictEqual(accepted.body.direction, "incoming")
        assert.isNull(accepted.body.expiresAt)
        assert.deepStrictEqual(await balance(app, acme.key), { posted: 8_500, pending: 0, available: 8_500 })
        assert.deepStrictEqual(await balance(app, globex.key), { posted: 1_500, pending: 0, available: 1_500 })
        const senderView = (await app.call("GET", `/v1/transfers/${sent.id}`, { token: acme.key })).body
        assert.strictEqual(senderView.status, "completed")
        assert.strictEqual(senderView.direction, "outgoing")

        const declinedOne = (
          await sendTransfer(app, acme.key, { to: { address: globex.address }, amount: 700, currency: "USD" })
        ).body
        const declined = await actOnTransfer(app, globex.key, declinedOne.id, "decline")
        assert.strictEqual(declined.status, 200)
        assert.strictEqual(declined.body.status, "declined")
        const canceledOne = (
          await sendTransfer(app, acme.key, { to: { address: globex.address }, amount: 300, currency: "USD" })
        ).body
        const canceled = await actOnTransfer(app, acme.key, canceledOne.id, "cancel")
        assert.strictEqual(canceled.status, 200)
        assert.strictEqual(canceled.body.status, "canceled")
        assert.strictEqual(canceled.body.direction, "outgoing")
        assert.deepStrictEqual(await balance(app, acme.key), { posted: 8_500, pending: 0, available: 8_500 })
        assert.deepStrictEqual(await balance(app, globex.key), { posted: 1_500, pending: 0, available: 1_500 })

        const all = await app.call("GET", "/v1/transfers", { token: acme.key })
        assert.deepStrictEqual(
          all.body.data.map((t: { id: string; status: string }) => [t.id, t.status]),
          [
            [canceledOne.id, "canceled"],
            [declinedOne.id, "declined"],
            [sent.id, "completed"]
          ]
        )
        const completed = await app.call("GET", "/v1/transfers?status=completed", { token: acme.key })
        assert.deepStrictEqual(
          completed.body.data.map((t: { id: string }) => t.id),
          [sent.id]
        )
        const first = await app.call("GET", "/v1/transfers?limit=2", { token: globex.key })
        assert.strictEqual(first.body.data.length, 2)
        assert.isTrue(first.body.meta.hasNextPage)
        const rest = await app.call("GET", `/v1/transfers?limit=2&cursor=${first.body.meta.cursor}`, {
          token: globex.key
        })
        assert.deepStrictEqual(
          [...first.body.data, ...rest.body.data].map((t: { id: string }) => t.id),
          [canceledOne.id, declinedOne.id, sent.id]
        )
        assert.isFalse(rest.body.meta.hasNextPage)
      })
    )

    it.effect("refuses bad transfers with the contract's errors, each naming its field or the status", () =>
      withAppOnPorts(async (app, context) => {
        const acme = await setUpTransferTeam(app, { funds: 10_000 })
        const globex = await setUpTransferTeam(app)
        const to = { address: globex.address }
        assertInvalid(
          await sendTransfer(app, acme.key, { to: { address: acme.address }, amount: 100, currency: "USD" }),
          "to"
        )
        assertInvalid(await sendTransfer(app, acme.key, { to: {}, amount: 100, currency: "USD" }), "to")
        assertInvalid(await sendTransfer(app, acme.key, { to, amount: 0, currency: "USD" }), "amount")
        assertInvalid(await sendTransfer(app, acme.key, { to, amount: 1.5, currency: "USD" }), "amount")
        assertInvalid(await sendTransfer(app, acme.key, { to, amount: 100, currency: "EUR" }), "currency")
        assertInvalid(
          await sendTransfer(app, acme.key, { to, amount: 100, currency: "USD", memo: "x".repeat(501) }),
          "memo"
        )
        const euroTeam = await setUpTransferTeam(app, { baseCurrency: "EUR" })
        assertInvalid(
          await sendTransfer(app, acme.key, { to: { address: euroTeam.address }, amount: 100, currency: "USD" }),
          "to"
        )

        const code = await app.call("POST", "/v1/transfers/payment-codes", {
          token: globex.key,
          body: { amount: 400, memo: "order 9" },
          headers: { "idempotency-key": crypto.randomUUID() }
        })
        const paymentCode = code.body.code as string
        assertInvalid(
          await sendTransfer(app, acme.key, { to: { paymentCode }, amount: 500, currency: "USD" }),
          "amount"
        )
        assertInvalid(
          await sendTransfer(app, acme.key, { to: { paymentCode }, amount: 400, currency: "USD", memo: "other" }),
          "memo"
        )

        for (const [body, what] of [
          [{ to: { address: "nobody-zzzz@test.svc" }, amount: 100, currency: "USD" }, "unknown address"],
          [
            { to: { address: globex.address.replace("@test.svc", "@svc") }, amount: 100, currency: "USD" },
            "live address"
          ],
          [{ to: { paymentCode: "PC-23456789" }, amount: 100, currency: "USD" }, "unknown code"]
        ] as const) {
          const answer = await sendTransfer(app, acme.key, body)
          assert.strictEqual(answer.status, 404, what)
          assert.strictEqual(answer.body.error, "not_found", what)
        }

        const byCode = await sendTransfer(app, acme.key, { to: { paymentCode }, amount: 400, currency: "USD" })
        assert.strictEqual(byCode.status, 201)
        assert.deepStrictEqual(byCode.body.to, { address: globex.address, paymentCode })
        assert.strictEqual(byCode.body.memo, "order 9")
        assert.strictEqual((await actOnTransfer(app, globex.key, byCode.body.id, "accept")).status, 200)
        const reused = await sendTransfer(app, acme.key, { to: { paymentCode }, amount: 400, currency: "USD" })
        assert.strictEqual(reused.status, 409)
        assert.strictEqual(reused.body.error, "payment_code_used")

        const expiredCode = `PC-${Array.from({ length: 8 }, () => CODE_ALPHABET[Math.floor(Math.random() * CODE_ALPHABET.length)]).join("")}`
        await run(
          context,
          Effect.gen(function* () {
            const past = new Date(Date.now() - 3_600_000).toISOString()
            const stored = yield* PaymentCodesRepo.use((r) =>
              r.insert({
                code: expiredCode,
                teamId: globex.id,
                teamName: "Team",
                handle: globex.address.replace("@test.svc", ""),
                mode: "test",
                amount: null,
                currency: "USD",
                memo: null,
                expiresAt: past,
                usedAt: null,
                usedByTransferId: null,
                reservedByTransferId: null,
                createdAt: new Date(Date.now() - 7_200_000).toISOString()
              })
            )
            assert.isTrue(stored)
          })
        )
        const expired = await sendTransfer(app, acme.key, {
          to: { paymentCode: expiredCode },
          amount: 100,
          currency: "USD"
        })
        assert.strictEqual(expired.status, 409)
        assert.strictEqual(expired.body.error, "payment_code_expired")

        const pending = (await sendTransfer(app, acme.key, { to, amount: 200, currency: "USD" })).body
        const senderAccepts = await actOnTransfer(app, acme.key, pending.id, "accept")
        assert.strictEqual(senderAccepts.status, 403)
        assert.deepStrictEqual(senderAccepts.body, {
          error: "forbidden",
          code: 403,
          message: "only the recipient can accept a transfer"
        })
        const recipientCancels = await actOnTransfer(app, globex.key, pending.id, "cancel")
        assert.strictEqual(recipientCancels.status, 403)
        assert.strictEqual(recipientCancels.body.message, "only the sender can cancel a transfer")
        assert.strictEqual((await actOnTransfer(app, globex.key, pending.id, "decline")).status, 200)
        for (const [key, operation] of [
          [globex.key, "accept"],
          [globex.key, "decline"],
          [acme.key, "cancel"]
        ] as const) {
          const late = await actOnTransfer(app, key, pending.id, operation)
          assert.strictEqual(late.status, 409, operation)
          assert.strictEqual(late.body.error, "transfer_not_pending")
          assert.match(late.body.message, /declined/u)
        }

        const stranger = await setUpTransferTeam(app)
        const unknown = crypto.randomUUID()
        for (const [method, path, key] of [
          ["GET", `/v1/transfers/${unknown}`, acme.key],
          ["POST", `/v1/transfers/${unknown}/accept`, acme.key],
          ["GET", `/v1/transfers/${pending.id}`, stranger.key],
          ["POST", `/v1/transfers/${pending.id}/cancel`, stranger.key]
        ] as const) {
          const answer = await app.call(method, path, {
            token: key,
            headers: { "idempotency-key": crypto.randomUUID() }
          })
          assert.strictEqual(answer.status, 404, path)
          assert.strictEqual(answer.body.error, "not_found")
        }

        const euros = await run(
          context,
          Effect.gen(function* () {
            const id = yield* newId(AccountId)
            yield* LedgerRepo.use((r) =>
              Effect.flatMap(nowIso, (createdAt) =>
                r.insertAccount({
                  id,
                  teamId: euroTeam.id,
                  mode: "test",
                  kind: "spend",
                  name: "Dollars",
                  currency: "USD",
                  createdAt
                })
              )
            )
            return id
          })
        )
        const dollarKey = await app.call("POST", "/treasury/spending-keys", {
          token: euroTeam.owner,
          body: { name: "dollar agent", mode: "test", accountId: euros, policy: {} }
        })
        assert.strictEqual(dollarKey.status, 201)
        const noSettlement = await sendTransfer(app, dollarKey.body.secret, { to, amount: 100, currency: "USD" })
        assert.strictEqual(noSettlement.status, 409)
        assert.strictEqual(noSettlement.body.error, "settlement_account_missing")
      })
    )

    it.effect("keys without spend.write cannot send or act on transfers; with spend.read they list them", () =>
      withAppOnPorts(async (app) => {
        const acme = await setUpTransferTeam(app, { funds: 1_000 })
        const globex = await setUpTransferTeam(app)
        const pending = (
          await sendTransfer(app, acme.key, { to: { address: globex.address }, amount: 100, currency: "USD" })
        ).body
        const scoped = await app.call("POST", "/treasury/team-api-keys", {
          token: globex.owner,
          body: { name: "reader", mode: "test", scopes: ["spend.read"] }
        })
        assert.strictEqual(scoped.status, 201)
        const reader = scoped.body.secret as string
        const listed = await app.call("GET", "/v1/transfers", { token: reader })
        assert.strictEqual(listed.status, 200)
        assert.deepStrictEqual(
          listed.body.data.map((t: { id: string }) => t.id),
          [pending.id]
        )
        const accept = await actOnTransfer(app, reader, pending.id, "accept")
        assert.strictEqual(accept.status, 403)
        assert.strictEqual(accept.body.error, "insufficient_scope")
        const sendAsReader = await sendTransfer(app, reader, {
          to: { address: acme.address },
          amount: 1,
          currency: "USD"
        })
        assert.strictEqual(sendAsReader.status, 403)
        assert.strictEqual(sendAsReader.body.error, "insufficient_scope")
        assert.strictEqual(
          (await app.call("GET", `/v1/transfers/${pending.id}`, { token: globex.key })).body.status,
          "pending_acceptance"
        )
      })
    )

    it.effect(
      "a create is idempotent: a retry replays it, another body under the key is 422, one transfer is made",
      () =>
        withAppOnPorts(async (app) => {
          const acme = await setUpTransferTeam(app, { funds: 1_000 })
          const globex = await setUpTransferTeam(app)
          const key = crypto.randomUUID()
          const body = { to: { address: globex.address }, amount: 250, currency: "USD" }
          const first = await sendTransfer(app, acme.key, body, key)
          assert.strictEqual(first.status, 201)
          const replay = await sendTransfer(app, acme.key, body, key)
          assert.strictEqual(replay.status, 201)
          assert.strictEqual(replay.headers.get("idempotent-replayed"), "true")
          assert.deepStrictEqual(replay.body, first.body)
          const other = await sendTransfer(app, acme.key, { ...body, amount: 260 }, key)
          assert.strictEqual(other.status, 422)
          assert.strictEqual(other.body.error, "idempotency_key_reused")
          const missing = await app.call("POST", "/v1/transfers", { token: acme.key, body })
          assert.strictEqual(missing.status, 400)
          const listed = await app.call("GET", "/v1/transfers", { token: acme.key })
          assert.deepStrictEqual(
            listed.body.data.map((t: { id: string }) => t.id),
            [first.body.id]
          )
          assert.deepStrictEqual(await balance(app, acme.key), { posted: 1_000, pending: 250, available: 750 })
        })
    )

    it.effect(
      "a transfer over the threshold is listed in /treasury/approvals with spend requests and decided there",
      () =>
        withAppOnPorts(async (app) => {
          const acme = await setUpTransferTeam(app, { funds: 10_000, policy: { approvalThreshold: 1_000 } })
          const globex = await setUpTransferTeam(app)
          const spend = await app.call("POST", "/v1/spend-requests", {
            token: acme.key,
            body: { amount: 1_200, currency: "USD", merchant: { name: "OpenAI" }, purpose: "tokens" },
            headers: { "idempotency-key": crypto.randomUUID() }
          })
          assert.strictEqual(spend.body.status, "pending_approval")
          const created = await sendTransfer(app, acme.key, {
            to: { address: globex.address },
            amount: 2_000,
            currency: "USD"
          })
          assert.strictEqual(created.status, 201)
          const transfer = created.body
          assert.strictEqual(transfer.status, "pending_approval")
          assert.strictEqual(transfer.approval.status, "pending")
          assert.isNull(transfer.expiresAt)

          const queue = await app.call("GET", "/treasury/approvals?status=pending", { token: acme.owner })
          assert.strictEqual(queue.status, 200)
          assert.deepStrictEqual(
            queue.body.data.map((a: { id: string; subjectType: string }) => [a.id, a.subjectType]),
            [
              [transfer.approval.id, "transfer"],
              [spend.body.approval.id, "spend_request"]
            ]
          )
          const [listedTransfer, listedSpend] = queue.body.data
          assert.deepStrictEqual(listedTransfer.subject, transfer)
          assert.strictEqual(listedSpend.subject.id, spend.body.id)
          for (const old of ["spendRequest", "transfer", "checkoutIntent", "cryptoPayout"]) {
            assert.notProperty(listedTransfer, old)
            assert.notProperty(listedSpend, old)
          }
          const page1 = await app.call("GET", "/treasury/approvals?limit=1", { token: acme.owner })
          const page2 = await app.call("GET", `/treasury/approvals?limit=1&cursor=${page1.body.meta.cursor}`, {
            token: acme.owner
          })
          assert.deepStrictEqual(
            [...page1.body.data, ...page2.body.data].map((a: { id: string }) => a.id),
            [transfer.approval.id, spend.body.approval.id]
          )
          assert.isFalse(page2.body.meta.hasNextPage)

          const approved = await app.call("POST", `/treasury/approvals/${transfer.approval.id}/approve`, {
            token: acme.owner,
            body: { note: "known vendor" }
          })
          assert.strictEqual(approved.status, 200, JSON.stringify(approved.body))
          assert.strictEqual(approved.body.subjectType, "transfer")
          assert.strictEqual(approved.body.status, "approved")
          assert.strictEqual(approved.body.note, "known vendor")
          assert.strictEqual(approved.body.subject.status, "pending_acceptance")
          const again = await app.call("POST", `/treasury/approvals/${transfer.approval.id}/deny`, {
            token: acme.owner,
            body: {}
          })
          assert.strictEqual(again.status, 409)
          assert.strictEqual(again.body.error, "approval_not_pending")
          assert.strictEqual((await actOnTransfer(app, globex.key, transfer.id, "accept")).body.status, "completed")
          assert.deepStrictEqual(await balance(app, globex.key), { posted: 2_000, pending: 0, available: 2_000 })

          const refused = (
            await sendTransfer(app, acme.key, { to: { address: globex.address }, amount: 3_000, currency: "USD" })
          ).body
          const denied = await app.call("POST", `/treasury/approvals/${refused.approval.id}/deny`, {
            token: acme.owner,
            body: {}
          })
          assert.strictEqual(denied.status, 200)
          assert.strictEqual(denied.body.status, "denied")
          assert.deepStrictEqual([denied.body.subjectType, denied.body.subject.status], ["transfer", "denied"])
          const spendApproved = await app.call("POST", `/treasury/approvals/${spend.body.approval.id}/approve`, {
            token: acme.owner,
            body: {}
          })
          assert.strictEqual(spendApproved.status, 200)
          assert.strictEqual(spendApproved.body.subjectType, "spend_request")
          assert.strictEqual(spendApproved.body.subject.status, "approved")
          assert.deepStrictEqual(await balance(app, acme.key), { posted: 6_800, pending: 0, available: 6_800 })
        })
    )

    it.effect("the acceptance deadline is the app's configured TTL", () =>
      withAppOnPorts(
        async (app) => {
          const acme = await setUpTransferTeam(app, { funds: 1_000 })
          const globex = await setUpTransferTeam(app)
          const sent = (
            await sendTransfer(app, acme.key, { to: { address: globex.address }, amount: 100, currency: "USD" })
          ).body
          assert.strictEqual(Date.parse(sent.expiresAt) - Date.parse(sent.createdAt), 3_600_000)
        },
        { ...testConfig, transferAcceptanceTtlSeconds: 3_600 }
      )
    )
  })
