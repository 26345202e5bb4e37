import { existsSync } from "node:fs"
import { isAbsolute } from "node:path"
import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { setUpKeyedTeam } from "../support/HttpScenarios.ts"
import { printedHostConfig, serviceOnLoopback, stdioClient, toolAnswer } from "./McpHarness.ts"

const service = serviceOnLoopback()

/** Every tool with the four hints it must state: read only, destructive, idempotent, open world. */
const TOOLS: Record<string, readonly [boolean, boolean, boolean, boolean]> = {
  cancel_spend_request: [false, true, true, false],
  create_checkout_intent: [false, false, false, false],
  create_spend_request: [false, true, false, false],
  create_transfer: [false, true, false, false],
  evaluate_spend_request: [true, false, true, false],
  get_balance: [true, false, true, false],
  get_checkout_intent: [true, false, true, false],
  get_spend_request: [true, false, true, false],
  get_transfer: [true, false, true, false],
  issue_card_for_intent: [false, false, true, true],
  list_spend_requests: [true, false, true, false],
  pay_for_resource: [false, true, false, true],
  simulate_authorization_advice: [false, true, true, false],
  simulate_card_authorization: [false, true, false, false],
  simulate_card_status: [false, true, true, false],
  simulate_clearing: [false, true, true, false],
  simulate_refund: [false, true, false, false]
}

const spend = (amount: number, clientRequestId?: string) => ({
  amount,
  currency: "USD",
  merchant: { name: "OpenAI", category: "software" },
  purpose: "API tokens",
  ...(clientRequestId === undefined ? {} : { clientRequestId })
})

let agent: Client
let recipientKey: string

beforeAll(async () => {
  const app = service.app()
  const team = await setUpKeyedTeam(app, { funds: 100_000, policy: { approvalThreshold: 50_000 } })
  recipientKey = (await setUpKeyedTeam(app)).key
  agent = await stdioClient(service.baseUrl(), team.key)
}, 120_000)

afterAll(() => agent?.close())

const call = async (name: string, args: Record<string, unknown> = {}) =>
  toolAnswer(await agent.callTool({ name, arguments: args }))

describe("the MCP server over stdio", () => {
  it("lists the eleven spend tools, the five test-mode issuer tools and pay_for_resource, each with a JSON schema of its parameters and a description", async () => {
    const { tools } = await agent.listTools()
    assert.deepStrictEqual(tools.map((t) => t.name).sort(), Object.keys(TOOLS).sort())
    for (const tool of tools) {
      assert.strictEqual(tool.inputSchema.type, "object", tool.name)
      assert.isAbove(tool.description?.length ?? 0, 80, tool.name)
    }
    const create = tools.find((t) => t.name === "create_spend_request")!
    const properties = create.inputSchema.properties as Record<string, { type?: string }>
    assert.includeMembers(Object.keys(properties), ["amount", "currency", "merchant", "purpose", "clientRequestId"])
    assert.strictEqual(properties.amount?.type, "integer")
    assert.includeMembers(create.inputSchema.required ?? [], ["amount", "currency", "merchant", "purpose"])
    assert.match(create.description ?? "", /minor units/u)
    const merchant = properties.merchant as unknown as { properties: Record<string, { description?: string }> }
    assert.match(merchant.properties.category?.description ?? "", /slug/u)
    assert.match((properties.purpose as { description?: string }).description ?? "", /approver/u)
    const transfer = tools.find((t) => t.name === "create_transfer")!
    const currency = (transfer.inputSchema.properties as Record<string, { enum?: Array<string>; const?: string }>)
      .currency
    assert.deepStrictEqual(currency?.enum ?? [currency?.const], ["USD"])
  })

  it("prints a host configuration that starts this checkout's CLI by absolute paths, never a package name", async () => {
    const server = await printedHostConfig("https://svc.example")
    assert.isTrue(isAbsolute(server.command) && existsSync(server.command), server.command)
    assert.notMatch(server.command, /npx|npm/u)
    assert.strictEqual(server.args.length, 2)
    assert.isTrue(isAbsolute(server.args[0] ?? "") && existsSync(server.args[0] ?? ""), server.args[0])
    assert.strictEqual(server.args[1], "mcp")
    assert.strictEqual(server.env.SVC_BASE_URL, "https://svc.example")
  })

  it("states every tool's hints truthfully: reads are read-only, money movers destructive", async () => {
    const { tools } = await agent.listTools()
    for (const tool of tools) {
      const [readOnly, destructive, idempotent, openWorld] = TOOLS[tool.name] ?? []
      assert.deepStrictEqual(
        tool.annotations,
        { readOnlyHint: readOnly, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: openWorld },
        tool.name
      )
    }
  })

  it("evaluates a spend request without spending, and follows a transfer and a checkout intent by id", async () => {
    const before = (await call("get_balance")).body
    const evaluated = await call("evaluate_spend_request", {
      amount: 60_000,
      currency: "USD",
      merchant: { name: "OpenAI", category: "software" },
      purpose: "a big batch of tokens"
    })
    assert.isFalse(evaluated.isError, JSON.stringify(evaluated.body))
    assert.strictEqual(evaluated.body.outcome, "pending_approval")
    assert.deepStrictEqual((await call("get_balance")).body, before)

    const address = (await service.app().call("GET", "/v1/transfers/receive-address", { token: recipientKey })).body
      .address
    const sent = await call("create_transfer", { to: { address }, amount: 700, currency: "USD" })
    const read = await call("get_transfer", { id: sent.body.id })
    assert.isFalse(read.isError, JSON.stringify(read.body))
    assert.deepInclude(read.body, { id: sent.body.id, amount: 700, status: "pending_acceptance" })

    const intent = await call("create_checkout_intent", {
      amount: 1_200,
      currency: "USD",
      merchant: { name: "Acme Books", url: "https://acme-books.example", mcc: "5942", country: "US" },
      purpose: "a second book"
    })
    const followed = await call("get_checkout_intent", { id: intent.body.id })
    assert.isFalse(followed.isError, JSON.stringify(followed.body))
    assert.deepInclude(followed.body, { id: intent.body.id, status: "approved", amount: 1_200 })
  })

  it("creates a spend request, reads it back and lists it; the balance shows the spend", async () => {
    const before = (await call("get_balance")).body
    const created = await call("create_spend_request", spend(1_999))
    assert.isFalse(created.isError, JSON.stringify(created.body))
    assert.strictEqual(created.body.status, "approved")
    assert.strictEqual(created.body.amount, 1_999)

    const read = await call("get_spend_request", { id: created.body.id })
    assert.deepStrictEqual(read.body, created.body)
    const listed = await call("list_spend_requests", { limit: 100 })
    assert.isTrue(listed.body.data.some((r: { id: string }) => r.id === created.body.id))

    const after = (await call("get_balance")).body
    assert.strictEqual(after.available, before.available - 1_999)
  })

  it("a retried create with the same clientRequestId spends once", async () => {
    const before = (await call("get_balance")).body.available
    const clientRequestId = crypto.randomUUID()
    const first = await call("create_spend_request", spend(700, clientRequestId))
    const retried = await call("create_spend_request", spend(700, clientRequestId))
    assert.strictEqual(retried.body.id, first.body.id)
    assert.strictEqual((await call("get_balance")).body.available, before - 700)
    const again = await call("create_spend_request", spend(700))
    assert.notStrictEqual(again.body.id, first.body.id, "without a clientRequestId every call is a new request")
    assert.strictEqual((await call("get_balance")).body.available, before - 1_400)
  })

  it("cancels a pending request and releases its hold; a final one answers the API's conflict as a tool error", async () => {
    const pending = await call("create_spend_request", spend(60_000))
    assert.strictEqual(pending.body.status, "pending_approval")
    const held = (await call("get_balance")).body.pending
    const canceled = await call("cancel_spend_request", { id: pending.body.id })
    assert.strictEqual(canceled.body.status, "canceled")
    assert.strictEqual((await call("get_balance")).body.pending, held - 60_000)

    const again = await call("cancel_spend_request", { id: pending.body.id })
    assert.isTrue(again.isError)
    assert.strictEqual(again.body.status, 409)
    assert.isString(again.body.error)
    assert.isString(again.body.message)
    assert.notMatch(JSON.stringify(again.body), /stack|SELECT|\.ts:\d+/u)
  })

  it("sends a transfer to another team's receive address", async () => {
    const address = (await service.app().call("GET", "/v1/transfers/receive-address", { token: recipientKey })).body
      .address
    const sent = await call("create_transfer", {
      to: { address },
      amount: 1_000,
      currency: "USD",
      clientRequestId: crypto.randomUUID()
    })
    assert.isFalse(sent.isError, JSON.stringify(sent.body))
    assert.strictEqual(sent.body.amount, 1_000)
    assert.strictEqual(sent.body.status, "pending_acceptance")
  })

  it("creates a checkout intent and issues its card, with the number once", async () => {
    const intent = await call("create_checkout_intent", {
      amount: 2_500,
      currency: "USD",
      merchant: { name: "Acme Books", url: "https://acme-books.example", mcc: "5942", country: "US" },
      purpose: "a book on double-entry bookkeeping",
      clientRequestId: crypto.randomUUID()
    })
    assert.strictEqual(intent.body.status, "approved", JSON.stringify(intent.body))
    const card = await call("issue_card_for_intent", { intentId: intent.body.id })
    assert.isFalse(card.isError, JSON.stringify(card.body))
    assert.match(card.body.number, /^\d{15,16}$/u)
    const again = await call("issue_card_for_intent", { intentId: intent.body.id })
    assert.strictEqual(again.body.cardId, card.body.cardId)
    assert.isUndefined(again.body.number)
  })

  it("plays the card issuer in test mode: authorizes, advises, clears and refunds, then closes the card", async () => {
    const intent = await call("create_checkout_intent", {
      amount: 3_000,
      currency: "USD",
      merchant: { name: "Acme Books", mcc: "5942", country: "US" },
      purpose: "a third book"
    })
    const card = await call("issue_card_for_intent", { intentId: intent.body.id })
    const before = (await call("get_balance")).body
    const merchant = { descriptor: "ACME BOOKS #42", mcc: "5942", country: "US" }
    const clientRequestId = crypto.randomUUID()
    const first = await call("simulate_card_authorization", {
      cardId: card.body.cardId,
      amount: 2_800,
      currency: "USD",
      merchant,
      clientRequestId
    })
    assert.isFalse(first.isError, JSON.stringify(first.body))
    assert.deepInclude(first.body, { decision: "APPROVED", status: "approved", heldAmount: 2_800 })
    const retried = await call("simulate_card_authorization", {
      cardId: card.body.cardId,
      amount: 2_800,
      currency: "USD",
      merchant,
      clientRequestId
    })
    assert.deepStrictEqual(retried.body, first.body, "the same clientRequestId answers the first authorization")
    assert.strictEqual((await call("get_balance")).body.available, before.available - 2_800)
    const advised = await call("simulate_authorization_advice", { authorizationId: first.body.id, amount: 3_000 })
    assert.strictEqual(advised.body.heldAmount, 3_000)
    const cleared = await call("simulate_clearing", { authorizationId: first.body.id, amount: 2_900 })
    assert.deepInclude(cleared.body, { status: "cleared", heldAmount: 0 })
    const refunded = await call("simulate_refund", { authorizationId: first.body.id, amount: 400 })
    assert.strictEqual(refunded.body.refundedAmount, 400)
    const after = (await call("get_balance")).body
    assert.deepStrictEqual([after.posted, after.available], [before.posted - 2_500, before.available - 2_500])
    const closed = await call("simulate_card_status", { cardId: card.body.cardId, status: "closed" })
    assert.deepInclude(closed.body, { id: card.body.cardId, status: "closed" })
    const tooMuch = await call("simulate_refund", { authorizationId: first.body.id, amount: 2_501 })
    assert.isTrue(tooMuch.isError)
    assert.deepInclude(tooMuch.body, { status: 409, error: "card_refund_unmatched" })
  })

  it("refuses invalid parameters before calling the service, naming the field", async () => {
    const refused = await agent.callTool({ name: "create_spend_request", arguments: spend(-5) }).catch((e: Error) => e)
    const text = refused instanceof Error ? refused.message : JSON.stringify(refused)
    assert.match(text, /amount/u)
  })

  it("tells an agent that sent 19.99 that amounts are integers in minor units", async () => {
    const refused = await agent
      .callTool({ name: "create_spend_request", arguments: spend(19.99) })
      .catch((e: Error) => e)
    const text = refused instanceof Error ? refused.message : JSON.stringify(refused)
    assert.include(text, "amounts are integers in minor units: 1999 for 19.99 USD")
  })
})
