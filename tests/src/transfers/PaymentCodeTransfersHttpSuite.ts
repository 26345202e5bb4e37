import { assert, layer } from "@effect/vitest"
import type { Ports } from "@svc/api"
import { Ledger, TransferId, TransfersRepo } from "@svc/domain"
import { type Context, Effect, type Layer, Option } from "effect"
import { balance, type Client, withAppOnPorts } from "../support/HttpScenarios.ts"
import { madeBeforeCodesWereHeld } from "./TransferDomainSetup.ts"
import { actOnTransfer, sendTransfer, setUpTransferTeam, type TransferTeam } from "./TransfersHttpSetup.ts"

const FUNDS = 10_000

/**
 * The balance a team's transfers call for: its funds, less what it paid and plus what it received in completed
 * transfers, with what its open transfers hold pending. A transfer completed without its credit, or a hold left on a
 * transfer that ended, shows as a difference from the balance the ledger keeps.
 */
const balanceByTransfers = async (app: Client, team: TransferTeam, funds: number) => {
  const listed = await app.call("GET", "/v1/transfers?limit=100", { token: team.key })
  assert.strictEqual(listed.status, 200)
  const transfers: ReadonlyArray<{ direction: string; status: string; amount: number }> = listed.body.data
  const sum = (direction: string, statuses: ReadonlyArray<string>) =>
    transfers
      .filter((t) => t.direction === direction && statuses.includes(t.status))
      .reduce((total, t) => total + t.amount, 0)
  const posted = funds - sum("outgoing", ["completed"]) + sum("incoming", ["completed"])
  const pending = sum("outgoing", ["pending_approval", "pending_acceptance"])
  return { posted, pending, available: posted - pending }
}

/** Every team's balance is the one its transfers call for. */
const assertSettled = async (app: Client, teams: ReadonlyArray<readonly [TransferTeam, number]>) => {
  for (const [team, funds] of teams) {
    assert.deepStrictEqual(await balance(app, team.key), await balanceByTransfers(app, team, funds))
  }
}

const createCode = async (app: Client, team: TransferTeam, body: unknown) => {
  const created = await app.call("POST", "/v1/transfers/payment-codes", {
    token: team.key,
    body,
    headers: { "idempotency-key": crypto.randomUUID() }
  })
  assert.strictEqual(created.status, 201)
  return created.body.code as string
}

const codeStatus = async (app: Client, team: TransferTeam, code: string) =>
  (await app.call("GET", `/v1/transfers/payment-codes/${code}`, { token: team.key })).body.status

const assertRefused = (answer: { status: number; body: { error: string } }, error: string) => {
  assert.strictEqual(answer.status, 409, JSON.stringify(answer.body))
  assert.strictEqual(answer.body.error, error)
}

/** Transfers made with payment codes over HTTP (issue 42), on whichever ports the caller provides. */
export const paymentCodeTransfersHttpSuite = <E>(name: string, ports: Layer.Layer<Ports, E>) =>
  layer(ports, { timeout: "120 seconds", excludeTestServices: true })(
    `transfers with payment codes over HTTP (${name})`,
    (it) => {
      const run = <A, E2>(context: Context.Context<Ports>, effect: Effect.Effect<A, E2, Ports | Ledger>) =>
        Effect.runPromise(effect.pipe(Effect.provide(Ledger.layer), Effect.provide(context)))

      it.effect("the payment-code sequence leaves no transfer completed without its credit and no hold stranded", () =>
        withAppOnPorts(async (app) => {
          const a = await setUpTransferTeam(app, { funds: FUNDS })
          const b = await setUpTransferTeam(app)
          const c = await setUpTransferTeam(app, { funds: FUNDS })
          const code = await createCode(app, b, { amount: 2_500 })
          const body = { to: { paymentCode: code }, amount: 2_500, currency: "USD" }

          const fromA = await sendTransfer(app, a.key, body)
          assert.strictEqual(fromA.status, 201)
          assert.strictEqual(fromA.body.status, "pending_acceptance")
          assert.strictEqual(await codeStatus(app, c, code), "reserved")
          const fromC = await sendTransfer(app, c.key, body)
          assertRefused(fromC, "payment_code_reserved")
          assert.include(fromC.body.message, code)

          const accepted = await actOnTransfer(app, b.key, fromA.body.id, "accept")
          assert.strictEqual(accepted.status, 200)
          assert.strictEqual(accepted.body.status, "completed")
          assert.strictEqual(await codeStatus(app, b, code), "used")
          assertRefused(await sendTransfer(app, c.key, body), "payment_code_used")

          assert.deepStrictEqual(await balance(app, a.key), { posted: 7_500, pending: 0, available: 7_500 })
          assert.deepStrictEqual(await balance(app, b.key), { posted: 2_500, pending: 0, available: 2_500 })
          assert.deepStrictEqual(await balance(app, c.key), { posted: FUNDS, pending: 0, available: FUNDS })
          await assertSettled(app, [
            [a, FUNDS],
            [b, 0],
            [c, FUNDS]
          ])
        })
      )

      it.effect("declining or canceling a transfer frees its code for the next sender", () =>
        withAppOnPorts(async (app) => {
          const a = await setUpTransferTeam(app, { funds: FUNDS })
          const b = await setUpTransferTeam(app)
          const c = await setUpTransferTeam(app, { funds: FUNDS })
          const code = await createCode(app, b, {})
          const body = { to: { paymentCode: code }, amount: 1_000, currency: "USD" }
          const declined = (await sendTransfer(app, a.key, body)).body
          assertRefused(await sendTransfer(app, c.key, body), "payment_code_reserved")
          assert.strictEqual((await actOnTransfer(app, b.key, declined.id, "decline")).body.status, "declined")
          assert.strictEqual(await codeStatus(app, a, code), "active")
          const canceled = (await sendTransfer(app, c.key, body)).body
          assert.strictEqual(canceled.status, "pending_acceptance")
          assert.strictEqual((await actOnTransfer(app, c.key, canceled.id, "cancel")).body.status, "canceled")
          assert.strictEqual(await codeStatus(app, a, code), "active")
          const paid = (await sendTransfer(app, a.key, body)).body
          assert.strictEqual((await actOnTransfer(app, b.key, paid.id, "accept")).body.status, "completed")
          await assertSettled(app, [
            [a, FUNDS],
            [b, 0],
            [c, FUNDS]
          ])
        })
      )

      it.effect("a transfer made with a code before codes were held: the refused acceptance keeps nothing", () =>
        withAppOnPorts(async (app, context) => {
          const a = await setUpTransferTeam(app, { funds: FUNDS })
          const b = await setUpTransferTeam(app)
          const c = await setUpTransferTeam(app, { funds: FUNDS })
          const code = await createCode(app, b, { amount: 2_500 })
          const fromA = (await sendTransfer(app, a.key, { to: { paymentCode: code }, amount: 2_500, currency: "USD" }))
            .body
          const template = (
            await sendTransfer(app, c.key, { to: { address: b.address }, amount: 2_500, currency: "USD" })
          ).body
          assert.strictEqual((await actOnTransfer(app, c.key, template.id, "cancel")).status, 200)
          const fromC = await run(
            context,
            Effect.gen(function* () {
              const like = yield* TransfersRepo.use((r) => r.find(TransferId.make(template.id)))
              return yield* madeBeforeCodesWereHeld(Option.getOrThrow(like), code)
            })
          )

          assert.strictEqual((await actOnTransfer(app, b.key, fromA.id, "accept")).status, 200)
          assertRefused(await actOnTransfer(app, b.key, fromC.id, "accept"), "payment_code_used")
          for (const team of [b, c]) {
            const seen = await app.call("GET", `/v1/transfers/${fromC.id}`, { token: team.key })
            assert.strictEqual(seen.body.status, "pending_acceptance", "the refused acceptance changed nothing")
          }
          assert.deepStrictEqual(await balance(app, c.key), { posted: FUNDS, pending: 2_500, available: 7_500 })
          assert.deepStrictEqual(await balance(app, b.key), { posted: 2_500, pending: 0, available: 2_500 })

          const declined = await actOnTransfer(app, b.key, fromC.id, "decline")
          assert.strictEqual(declined.status, 200)
          assert.strictEqual(declined.body.status, "declined")
          assert.deepStrictEqual(await balance(app, c.key), { posted: FUNDS, pending: 0, available: FUNDS })
          await assertSettled(app, [
            [a, FUNDS],
            [b, 0],
            [c, FUNDS]
          ])
        })
      )

      it.effect(
        "of concurrent transfers made with one code exactly one is made; the others are 409 and hold nothing",
        () =>
          withAppOnPorts(async (app) => {
            const recipient = await setUpTransferTeam(app)
            const senders = await Promise.all(Array.from({ length: 6 }, () => setUpTransferTeam(app, { funds: FUNDS })))
            const code = await createCode(app, recipient, {})
            const answers = await Promise.all(
              senders.map((s) =>
                sendTransfer(app, s.key, { to: { paymentCode: code }, amount: 1_000, currency: "USD" })
              )
            )
            assert.deepStrictEqual(
              answers.map((r) => r.status).toSorted(),
              [201, 409, 409, 409, 409, 409],
              JSON.stringify(answers.map((r) => r.body.error ?? r.body.status))
            )
            for (const refused of answers.filter((r) => r.status === 409)) {
              assert.strictEqual(refused.body.error, "payment_code_reserved")
            }
            assert.strictEqual(await codeStatus(app, recipient, code), "reserved")
            const pending = await Promise.all(senders.map(async (s) => (await balance(app, s.key)).pending))
            assert.deepStrictEqual(pending.toSorted(), [0, 0, 0, 0, 0, 1_000])
          })
      )
    }
  )
