import { assert, beforeAll, describe, it } from "@effect/vitest"
import { sessionToken } from "../support/InProcessApp.ts"
import { cliOnPostgres, svc } from "./CliHarness.ts"

const { app, baseUrl } = cliOnPostgres()

/** Two teams, each with a test spending key; Acme holds USD 500. */
const keys = { acme: "", globex: "" }
beforeAll(async () => {
  for (const name of ["acme", "globex"] as const) {
    const owner = await sessionToken({ email: `owner@${name}.test` })
    assert.strictEqual((await app.call("POST", "/teams", { token: owner, body: { name } })).status, 201)
    const key = await app.call("POST", "/treasury/spending-keys", {
      token: owner,
      body: { name: "agent", mode: "test", policy: {} }
    })
    assert.strictEqual(key.status, 201)
    keys[name] = key.body.secret
  }
  const deposit = await app.call("POST", "/v1/test-helpers/deposits", {
    token: keys.acme,
    body: { amount: 50_000, currency: "USD" },
    headers: { "idempotency-key": crypto.randomUUID() }
  })
  assert.strictEqual(deposit.status, 201)
})

const as = (team: keyof typeof keys) => ({ SVC_TOKEN: keys[team], SVC_BASE_URL: baseUrl() })

describe("svc transfers", () => {
  it("sends to another team's address, which lists, accepts one and declines another", async () => {
    const address = (await app.call("GET", "/v1/transfers/receive-address", { token: keys.globex })).body.address
    const [sent, other] = await Promise.all([
      svc(["transfers", "send", "--to", address, "--amount", "12.00", "--memo", "thanks", "--json"], as("acme")),
      svc(["transfers", "send", "--to", address, "--amount-minor", "250"], as("acme"))
    ])
    assert.strictEqual(sent.code, 0, sent.stderr)
    const transfer = JSON.parse(sent.stdout)
    assert.deepStrictEqual([transfer.status, transfer.amount, transfer.memo], ["pending_acceptance", 1_200, "thanks"])
    assert.strictEqual(other.code, 0, other.stderr)
    assert.match(other.stdout, /amount\s+USD 2\.50/u)
    const otherId = /^id\s+(\S+)$/mu.exec(other.stdout)?.[1]
    assert.isDefined(otherId)

    const listed = await svc(["transfers", "list", "--direction", "incoming", "--json"], as("globex"))
    assert.strictEqual(listed.code, 0, listed.stderr)
    assert.includeMembers(
      JSON.parse(listed.stdout).data.map((t: { id: string }) => t.id),
      [transfer.id, otherId]
    )
    const [accepted, declined] = await Promise.all([
      svc(["transfers", "accept", transfer.id], as("globex")),
      svc(["transfers", "decline", otherId ?? "", "--json"], as("globex"))
    ])
    assert.strictEqual(accepted.code, 0, accepted.stderr)
    assert.match(accepted.stdout, /status\s+completed/u)
    assert.strictEqual(declined.code, 0, declined.stderr)
    assert.strictEqual(JSON.parse(declined.stdout).status, "declined")

    const human = await svc(["transfers", "list"], as("acme"))
    assert.match(human.stdout, new RegExp(`${transfer.id}\\s+completed\\s+outgoing\\s+USD 12\\.00\\s+${address}`, "u"))
    const again = await svc(["transfers", "accept", transfer.id], as("globex"))
    assert.strictEqual(again.code, 5)
    assert.match(again.stderr, /error: transfer_not_pending \(409\)/u)
    const inexact = await svc(["transfers", "send", "--to", address, "--amount", "1.001"], as("acme"))
    assert.strictEqual(inexact.code, 2)
    assert.match(inexact.stderr, /--amount: USD amounts have at most 2 decimals/u)
  })
})

describe("svc checkout", () => {
  it("creates an intent and shows its card once, saying so; later calls show only the last four digits", async () => {
    const intent = await svc(
      [
        "checkout",
        "intent",
        "--amount",
        "25",
        "--currency",
        "USD",
        "--merchant",
        "Acme Books",
        "--mcc",
        "5942",
        "--country",
        "US",
        "--purpose",
        "a book on double-entry bookkeeping",
        "--json"
      ],
      as("acme")
    )
    assert.strictEqual(intent.code, 0, intent.stderr)
    const created = JSON.parse(intent.stdout)
    assert.deepStrictEqual([created.status, created.amount], ["approved", 2_500])

    const card = await svc(["checkout", "card", created.id], as("acme"))
    assert.strictEqual(card.code, 0, card.stderr)
    const number = /^number\s+(\d{12,19})$/mu.exec(card.stdout)?.[1]
    assert.isDefined(number, card.stdout)
    assert.match(card.stdout, /cvc\s+\d{3,4}/u)
    assert.match(card.stdout, /shown once/u)

    const later = await svc(["checkout", "card", created.id, "--json"], as("acme"))
    assert.strictEqual(later.code, 0, later.stderr)
    const reference = JSON.parse(later.stdout)
    assert.isUndefined(reference.number)
    assert.strictEqual(reference.last4, number?.slice(-4))
  })
})

describe("svc checkout simulate", () => {
  it("plays the card issuer on a test card: authorize, advise, clear, refund, card-status; a live key is refused", async () => {
    const owner = await sessionToken({ email: "owner@initech.test" })
    assert.strictEqual((await app.call("POST", "/teams", { token: owner, body: { name: "initech" } })).status, 201)
    const keyOf = async (mode: string) =>
      (await app.call("POST", "/treasury/spending-keys", { token: owner, body: { name: mode, mode, policy: {} } })).body
        .secret as string
    const [test, live] = [await keyOf("test"), await keyOf("live")]
    const env = { SVC_TOKEN: test, SVC_BASE_URL: baseUrl() }
    await app.call("POST", "/v1/test-helpers/deposits", {
      token: test,
      body: { amount: 10_000, currency: "USD" },
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    const created = await app.call("POST", "/v1/checkout/intents", {
      token: test,
      body: { amount: 2_500, currency: "USD", merchant: { name: "Acme Books", mcc: "5942" }, purpose: "a book" },
      headers: { "idempotency-key": crypto.randomUUID() }
    })
    const card = await app.call("POST", `/v1/checkout/intents/${created.body.id}/credentials`, { token: test })
    const cardId = card.body.cardId as string

    const declined = await svc(
      ["checkout", "simulate", "authorize", cardId, "--amount", "30", "--currency", "USD", "--merchant", "ACME BOOKS"],
      env
    )
    assert.strictEqual(declined.code, 3, declined.stderr)
    assert.match(declined.stdout, /decision\s+DECLINED\nreason\s+amount_over_intent/u)
    const approved = await svc(
      [
        "checkout",
        "simulate",
        "authorize",
        cardId,
        "--amount",
        "24",
        "--currency",
        "USD",
        "--merchant",
        "ACME BOOKS #42",
        "--mcc",
        "5942",
        "--json"
      ],
      env
    )
    assert.strictEqual(approved.code, 0, approved.stderr)
    const authorization = JSON.parse(approved.stdout)
    assert.deepInclude(authorization, { decision: "APPROVED", status: "approved", heldAmount: 2_400 })

    const advised = await svc(["checkout", "simulate", "advise", authorization.id, "--amount", "25"], env)
    assert.strictEqual(advised.code, 0, advised.stderr)
    assert.match(advised.stdout, /held\s+USD 25\.00/u)
    const cleared = await svc(["checkout", "simulate", "clear", authorization.id, "--amount-minor", "2000"], env)
    assert.strictEqual(cleared.code, 0, cleared.stderr)
    assert.match(cleared.stdout, /status\s+cleared/u)
    const refunded = await svc(["checkout", "simulate", "refund", authorization.id, "--amount", "5", "--json"], env)
    assert.strictEqual(refunded.code, 0, refunded.stderr)
    assert.strictEqual(JSON.parse(refunded.stdout).refundedAmount, 500)
    const balance = (await app.call("GET", "/v1/balance", { token: test })).body
    assert.deepInclude(balance, { posted: 8_500, pending: 0, available: 8_500 })
    const closed = await svc(["checkout", "simulate", "card-status", cardId, "--status", "closed"], env)
    assert.strictEqual(closed.code, 0, closed.stderr)
    assert.match(closed.stdout, /status\s+closed/u)
    const tooMuch = await svc(["checkout", "simulate", "refund", authorization.id, "--amount", "20"], env)
    assert.strictEqual(tooMuch.code, 5)
    assert.match(tooMuch.stderr, /error: card_refund_unmatched \(409\)/u)

    const refused = await svc(["checkout", "simulate", "card-status", cardId, "--status", "active"], {
      ...env,
      SVC_TOKEN: live
    })
    assert.strictEqual(refused.code, 5)
    assert.match(refused.stderr, /error: forbidden \(403\)/u)
  })
})
