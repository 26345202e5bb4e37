import { assert, layer } from "@effect/vitest"
import { createClient, type X402Payment, X402PaymentNotMade, x402Fetch } from "@svc/sdk"
import { Effect } from "effect"
import type { Address } from "viem"
import { svc } from "../cli/CliHarness.ts"
import { stdioClient, toolAnswer } from "../mcp/McpHarness.ts"
import { apiProcesses, type Running } from "../support/ApiProcess.ts"
import { type Client, setUpKeyedTeam } from "../support/HttpScenarios.ts"
import { clientOf } from "../support/InProcessApp.ts"
import { RESOURCE_BODY, X402Rig } from "../support/X402Rig.ts"

/** The rig's price: 2.50 of its dollar token (6 decimals), which the budgets count as 250 cents. */
const PRICE = 2_500_000n

/** A client of a running process, in the shape the in-process suites use. */
const clientAt = (server: Running): Client =>
  clientOf((request) => {
    const url = new URL(request.url)
    return fetch(new Request(`${server.baseUrl}${url.pathname}${url.search}`, request))
  })

/**
 * Governed x402 payments end to end: the service (a real process) pays the rig's resource, which the official x402
 * middleware protects and whose payments the official facilitator settles on a local chain, for an agent using the
 * SDK's paying fetch; the token moves on chain by exactly the price, and the key's policy governs every payment.
 */
layer(X402Rig.layer({ priceMinor: PRICE }), { timeout: "180 seconds" })("x402 payments through the service", (it) => {
  const processes = apiProcesses()
  let server: Running | undefined

  /** The service, started once, paying in the rig's token on the rig's chain and watching it for settlements. */
  const service = Effect.gen(function* () {
    const rig = yield* X402Rig
    if (server === undefined) {
      const started = yield* Effect.promise(() =>
        processes.start({
          X402_LOCAL_TOKEN: rig.token,
          [`X402_RPC_URL_${rig.chainId}`]: rig.rpcUrl,
          X402_WATCH_INTERVAL_SECONDS: "1"
        })
      )
      server = started
    }
    return server
  })

  /** A team whose key has `policy`, funds in its account, and its x402 wallet funded with `tokens` on the chain. */
  const payingAgent = (policy: Record<string, unknown>, tokens = PRICE * 4n) =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const running = yield* service
      const app = clientAt(running)
      const team = yield* Effect.promise(() => setUpKeyedTeam(app, { policy, funds: 100_000 }))
      const sdk = createClient({ baseUrl: running.baseUrl, token: team.key })
      const wallet = yield* Effect.promise(() => sdk.x402Payments.wallet())
      yield* rig.fund(wallet.address as Address, tokens)
      return { app, team, sdk, wallet: wallet.address as Address }
    })

  /** A person of the agent's team approves the payment (its owner, through the service). */
  const approve = (agent: { readonly app: Client; readonly team: { readonly owner: string } }, payment: X402Payment) =>
    Effect.promise(() =>
      agent.app.call("POST", `/treasury/approvals/${payment.approval?.id}/approve`, {
        token: agent.team.owner,
        body: {}
      })
    ).pipe(Effect.map((approved) => assert.strictEqual(approved.status, 200, JSON.stringify(approved.body))))

  it.effect("an agent gets the resource after one governed payment; the token moves by exactly the price", () =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const { sdk, wallet } = yield* payingAgent({})
      const before = { payTo: yield* rig.balanceOf(rig.payTo), wallet: yield* rig.balanceOf(wallet) }
      const payments: Array<string> = []
      const answer = yield* Effect.promise(() =>
        x402Fetch(sdk, { onPayment: (payment) => payments.push(payment.id) })(rig.resourceUrl)
      )
      assert.strictEqual(answer.status, 200)
      assert.deepStrictEqual(yield* Effect.promise(() => answer.json()), RESOURCE_BODY)
      assert.strictEqual(payments.length, 1)
      assert.strictEqual((yield* rig.balanceOf(rig.payTo)) - before.payTo, PRICE)
      assert.strictEqual(before.wallet - (yield* rig.balanceOf(wallet)), PRICE)
      const payment = yield* Effect.promise(() => sdk.x402Payments.get({ params: { id: payments[0] ?? "" } }))
      assert.strictEqual(payment.amount, 250)
      // The service sees the authorization used on chain and posts its hold.
      const settled = yield* Effect.promise(async () => {
        for (let i = 0; i < 50; i++) {
          const read = await sdk.x402Payments.get({ params: { id: payment.id } })
          if (read.status === "settled") return read
          await new Promise((r) => setTimeout(r, 200))
        }
        return undefined
      })
      assert.strictEqual(settled?.status, "settled")
      const balance = yield* Effect.promise(() => sdk.accounts.balance())
      assert.deepStrictEqual([balance.posted, balance.pending], [100_000 - 250, 0])
    })
  )

  it.effect("over the key's per-request limit the payment is denied, nothing is signed and nothing moves", () =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const { sdk, wallet } = yield* payingAgent({ perRequestLimit: 100 })
      const before = yield* rig.balanceOf(wallet)
      const refused = yield* Effect.promise(() =>
        x402Fetch(sdk)(rig.resourceUrl).then(
          () => undefined,
          (error: unknown) => error
        )
      )
      assert.instanceOf(refused, X402PaymentNotMade)
      const { payment } = refused as X402PaymentNotMade
      assert.strictEqual(payment.status, "denied")
      assert.isNull(payment.paymentHeader)
      assert.isNull(payment.authorization)
      assert.strictEqual(yield* rig.balanceOf(wallet), before)
    })
  )

  it.effect("over the approval threshold the payment waits for a person and is paid once approved", () =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const agent = yield* payingAgent({ approvalThreshold: 100 })
      const { sdk } = agent
      const before = yield* rig.balanceOf(rig.payTo)
      const pending: Array<string> = []
      const paying = x402Fetch(sdk, {
        wait: { initialIntervalMs: 100, onPending: (payment) => pending.push(payment.id) }
      })(rig.resourceUrl)
      const waited = yield* Effect.promise(async () => {
        for (let i = 0; i < 100 && pending.length === 0; i++) await new Promise((r) => setTimeout(r, 50))
        return pending[0]
      })
      assert.isDefined(waited)
      const payment = yield* Effect.promise(() => sdk.x402Payments.get({ params: { id: waited ?? "" } }))
      assert.strictEqual(payment.status, "pending_approval")
      assert.isNull(payment.paymentHeader)
      yield* approve(agent, payment)
      const answer = yield* Effect.promise(() => paying)
      assert.strictEqual(answer.status, 200)
      assert.strictEqual((yield* rig.balanceOf(rig.payTo)) - before, PRICE)
    })
  )

  it.effect('with approval "return", a payment that needs approval rejects at once with the pending payment', () =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const agent = yield* payingAgent({ approvalThreshold: 100 })
      const before = yield* rig.balanceOf(rig.payTo)
      const pending: Array<string> = []
      const refused = yield* Effect.promise(() =>
        // Were it to wait, it would read the payment once (`onPending`) before this timeout ended the wait.
        x402Fetch(agent.sdk, {
          approval: "return",
          wait: { timeoutMs: 1, onPending: (payment) => pending.push(payment.id) }
        })(rig.resourceUrl).then(
          () => undefined,
          (error: unknown) => error
        )
      )
      assert.instanceOf(refused, X402PaymentNotMade)
      const { payment } = refused as X402PaymentNotMade
      assert.strictEqual(payment.status, "pending_approval")
      assert.isNull(payment.paymentHeader)
      assert.deepStrictEqual(pending, [], "it did not wait")
      assert.strictEqual(yield* rig.balanceOf(rig.payTo), before)
      // A person approves it later: the caller reads it again for the header that pays the resource.
      yield* approve(agent, payment)
      const approved = yield* Effect.promise(() => agent.sdk.x402Payments.get({ params: { id: payment.id } }))
      assert.strictEqual(approved.status, "signed")
      assert.isNotNull(approved.paymentHeader)
    })
  )

  it.effect("a call retried with the same Idempotency-Key signs once; two at once on a budget for one pay once", () =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const { sdk } = yield* payingAgent({})
      const key = crypto.randomUUID()
      const signed: Array<string> = []
      const once = x402Fetch(sdk, { idempotencyKey: () => key, onPayment: (payment) => signed.push(payment.id) })
      assert.strictEqual((yield* Effect.promise(() => once(rig.resourceUrl))).status, 200)
      // The retry gets the first payment again: its authorization is used, so the resource refuses it.
      assert.strictEqual((yield* Effect.promise(() => once(rig.resourceUrl))).status, 402)
      assert.deepStrictEqual(new Set(signed).size, 1)
      const listed = yield* Effect.promise(() => sdk.x402Payments.list({ query: {} }))
      assert.strictEqual(listed.data.length, 1)

      const budgeted = yield* payingAgent({ dailyBudget: 300 })
      const before = yield* rig.balanceOf(rig.payTo)
      const outcomes = yield* Effect.promise(() =>
        Promise.all(
          [1, 2].map(() =>
            x402Fetch(budgeted.sdk)(rig.resourceUrl).then(
              (response) => response.status,
              (error: unknown) => (error instanceof X402PaymentNotMade ? error.payment.status : String(error))
            )
          )
        )
      )
      assert.deepStrictEqual(outcomes.map(String).toSorted(), ["200", "denied"])
      assert.strictEqual((yield* rig.balanceOf(rig.payTo)) - before, PRICE)
    })
  )

  it.effect("svc pay prints the paid resource; a denied payment exits 3 and prints nothing", () =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const running = yield* service
      const paid = yield* payingAgent({})
      const before = yield* rig.balanceOf(rig.payTo)
      const run = yield* Effect.promise(() =>
        svc(["pay", rig.resourceUrl], { SVC_TOKEN: paid.team.key, SVC_BASE_URL: running.baseUrl })
      )
      assert.strictEqual(run.code, 0, run.stderr)
      assert.deepStrictEqual(JSON.parse(run.stdout), RESOURCE_BODY)
      assert.strictEqual(run.stderr, "", "no approval was needed, so no wait is shown")
      assert.strictEqual((yield* rig.balanceOf(rig.payTo)) - before, PRICE)

      const limited = yield* payingAgent({ perRequestLimit: 100 })
      const denied = yield* Effect.promise(() =>
        svc(["pay", rig.resourceUrl], { SVC_TOKEN: limited.team.key, SVC_BASE_URL: running.baseUrl })
      )
      assert.strictEqual(denied.code, 3)
      assert.strictEqual(denied.stdout, "")
      assert.include(denied.stderr, "denied")
      assert.notInclude(denied.stderr, "waiting for approval")
    })
  )

  it.effect("svc pay --no-wait exits 4 when the payment waits for approval, naming it, and pays nothing", () =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const running = yield* service
      const agent = yield* payingAgent({ approvalThreshold: 100 })
      const before = yield* rig.balanceOf(rig.payTo)
      const run = yield* Effect.promise(() =>
        svc(["pay", rig.resourceUrl, "--no-wait"], { SVC_TOKEN: agent.team.key, SVC_BASE_URL: running.baseUrl })
      )
      assert.strictEqual(run.code, 4, run.stderr)
      assert.strictEqual(run.stdout, "")
      const listed = yield* Effect.promise(() => agent.sdk.x402Payments.list({ query: {} }))
      assert.deepStrictEqual(
        listed.data.map((payment) => payment.status),
        ["pending_approval"]
      )
      assert.include(run.stderr, `waits for a person's approval (payment ${listed.data[0]?.id})`)
      assert.strictEqual(yield* rig.balanceOf(rig.payTo), before)
    })
  )

  it.effect("svc pay refuses a --method it does not send with exit 2 naming the flag, before asking anything", () =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const running = yield* service
      const agent = yield* payingAgent({})
      const run = yield* Effect.promise(() =>
        svc(["pay", rig.resourceUrl, "--method", "FETCH"], {
          SVC_TOKEN: agent.team.key,
          SVC_BASE_URL: running.baseUrl
        })
      )
      assert.strictEqual(run.code, 2, run.stderr)
      assert.match(run.stderr, /^error: Invalid value for flag --method: "FETCH"/u)
      assert.strictEqual(run.stdout, "")
      const listed = yield* Effect.promise(() => agent.sdk.x402Payments.list({ query: {} }))
      assert.strictEqual(listed.data.length, 0)
    })
  )

  it.effect("the MCP tool pay_for_resource of svc mcp answers the resource and the payment it made", () =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const running = yield* service
      const { team } = yield* payingAgent({})
      const answer = yield* Effect.promise(async () => {
        const client = await stdioClient(running.baseUrl, team.key)
        try {
          const tools = await client.listTools()
          assert.isTrue(tools.tools.some((tool) => tool.name === "pay_for_resource"))
          return toolAnswer(
            await client.callTool({
              name: "pay_for_resource",
              arguments: { url: rig.resourceUrl, clientRequestId: crypto.randomUUID() }
            })
          )
        } finally {
          await client.close()
        }
      })
      assert.isFalse(answer.isError, JSON.stringify(answer.body))
      assert.strictEqual(answer.body.status, 200)
      assert.isTrue(answer.body.paid)
      assert.deepStrictEqual(JSON.parse(answer.body.body), RESOURCE_BODY)
      assert.strictEqual(answer.body.payment.status, "signed")
      assert.strictEqual(answer.body.payment.amount, 250)
    })
  )

  it.effect("pay_for_resource with the paymentId of an approved payment fetches with it, asking no new payment", () =>
    Effect.gen(function* () {
      const rig = yield* X402Rig
      const running = yield* service
      const agent = yield* payingAgent({ approvalThreshold: 100 })
      const before = yield* rig.balanceOf(rig.payTo)
      const client = yield* Effect.acquireRelease(
        Effect.promise(() => stdioClient(running.baseUrl, agent.team.key)),
        (opened) => Effect.promise(() => opened.close())
      )
      const pay = (args: Record<string, unknown>) =>
        Effect.promise(() =>
          client.callTool({ name: "pay_for_resource", arguments: { url: rig.resourceUrl, ...args } })
        ).pipe(Effect.map(toolAnswer))
      const asked = yield* pay({ clientRequestId: crypto.randomUUID() })
      assert.isFalse(asked.isError, JSON.stringify(asked.body))
      assert.isFalse(asked.body.paid)
      assert.strictEqual(asked.body.payment.status, "pending_approval")
      yield* approve(agent, asked.body.payment)

      const resumed = yield* pay({ paymentId: asked.body.payment.id, clientRequestId: crypto.randomUUID() })
      assert.isFalse(resumed.isError, JSON.stringify(resumed.body))
      assert.strictEqual(resumed.body.status, 200)
      assert.isTrue(resumed.body.paid)
      assert.deepStrictEqual(JSON.parse(resumed.body.body), RESOURCE_BODY)
      assert.strictEqual(resumed.body.payment.id, asked.body.payment.id)
      const listed = yield* Effect.promise(() => agent.sdk.x402Payments.list({ query: {} }))
      assert.deepStrictEqual(
        listed.data.map((payment) => payment.id),
        [asked.body.payment.id]
      )
      assert.strictEqual((yield* rig.balanceOf(rig.payTo)) - before, PRICE)
    })
  )
})
