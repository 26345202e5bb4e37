import { assert, describe, it } from "@effect/vitest"
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { sessionToken } from "../support/InProcessApp.ts"
import { serviceOnLoopback, toolAnswer } from "./McpHarness.ts"
import { MCP_REDIRECT, MemoryOAuthProvider } from "./McpOAuth.ts"

const service = serviceOnLoopback()

const spend = {
  amount: 1_250,
  currency: "USD",
  merchant: { name: "OpenAI", category: "software" },
  purpose: "API tokens"
}

/** A signed-in user with a team of their own, as the consent screen's session sees them. */
const userWithTeam = async () => {
  const session = await sessionToken()
  const team = await service.app().call("POST", "/teams", { token: session, body: { name: "Acme" } })
  assert.strictEqual(team.status, 201, JSON.stringify(team.body))
  return { session, teamId: team.body.id as string }
}

/**
 * Connects the official MCP client to /mcp through its own OAuth helper: the 401 sends it through discovery, dynamic
 * registration and PKCE to the authorization URL; the test plays the user granting `scopes` with their session, and
 * the client finishes with the code.
 */
const connectAfterConsent = async (scopes: ReadonlyArray<string>) => {
  const url = new URL(`${service.baseUrl()}/mcp`)
  const provider = new MemoryOAuthProvider(scopes.join(" "))
  const first = new Client({ name: "svc-tests", version: "0.0.1" })
  const refused = await first.connect(new StreamableHTTPClientTransport(url, { authProvider: provider })).then(
    () => null,
    (e: unknown) => e
  )
  assert.instanceOf(refused, UnauthorizedError)

  const authorization = provider.authorizationUrl
  assert.isDefined(authorization)
  const query = authorization!.searchParams
  assert.strictEqual(`${authorization!.origin}${authorization!.pathname}`, `${service.baseUrl()}/oauth/authorize`)
  assert.strictEqual(query.get("code_challenge_method"), "S256")
  assert.strictEqual(query.get("redirect_uri"), MCP_REDIRECT)
  assert.strictEqual(query.get("resource"), `${service.baseUrl()}/mcp`, "the resource of /mcp's own metadata")
  const consent = await service.app().call("GET", `/oauth/authorize${authorization!.search}`)
  assert.strictEqual(consent.status, 200, JSON.stringify(consent.body))

  const user = await userWithTeam()
  const decided = await service.app().call("POST", "/oauth/authorize", {
    token: user.session,
    body: {
      client_id: query.get("client_id"),
      decision: "allow",
      scopes,
      redirect_uri: MCP_REDIRECT,
      state: query.get("state"),
      code_challenge: query.get("code_challenge"),
      teamId: user.teamId
    }
  })
  assert.strictEqual(decided.status, 200, JSON.stringify(decided.body))
  const code = new URL(decided.body.redirect_url).searchParams.get("code")
  assert.isString(code)

  const finishing = new StreamableHTTPClientTransport(url, { authProvider: provider })
  await finishing.finishAuth(code!)
  const client = new Client({ name: "svc-tests", version: "0.0.1" })
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))
  return { client, provider, user }
}

describe("the MCP server over Streamable HTTP at /mcp", () => {
  it("without a credential answers 401 with the challenge naming the protected resource metadata", async () => {
    const answer = await fetch(`${service.baseUrl()}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
    })
    assert.strictEqual(answer.status, 401)
    assert.strictEqual(
      answer.headers.get("www-authenticate"),
      `Bearer resource_metadata="${service.baseUrl()}/.well-known/oauth-protected-resource/mcp"`
    )
    assert.strictEqual((await answer.json()).error, "unauthorized")

    const unknown = await fetch(`${service.baseUrl()}/mcp`, {
      method: "POST",
      headers: { authorization: "Bearer mid_access_token_unknown", "content-type": "application/json" },
      body: "{}"
    })
    assert.strictEqual(unknown.status, 401)

    const metadata = await (await fetch(`${service.baseUrl()}/.well-known/oauth-protected-resource/mcp`)).json()
    assert.strictEqual(metadata.resource, `${service.baseUrl()}/mcp`, "the path's own resource (RFC 9728 3.3)")
    assert.deepStrictEqual(metadata.authorization_servers, [service.baseUrl()])
  })

  it("after the OAuth flow lists the tools, creates a spend request and reads it back", async () => {
    const { client, provider } = await connectAfterConsent(["spend.read", "spend.write", "accounts.read"])
    assert.match(provider.tokens()?.access_token ?? "", /^mid_access_token_/u)
    const { tools } = await client.listTools()
    assert.strictEqual(tools.length, 16)
    assert.notInclude(
      tools.map((tool) => tool.name),
      "pay_for_resource",
      "the service's own /mcp never fetches a URL a caller names"
    )

    const created = toolAnswer(await client.callTool({ name: "create_spend_request", arguments: spend }))
    assert.isFalse(created.isError, JSON.stringify(created.body))
    assert.includeMembers(["approved", "denied", "pending_approval"], [created.body.status])
    assert.strictEqual(created.body.amount, 1_250)
    const read = toolAnswer(await client.callTool({ name: "get_spend_request", arguments: { id: created.body.id } }))
    assert.deepStrictEqual(read.body, created.body)
    await client.close()
  })

  it("acts as one live team key of the app, spends once per retried tool call, and stays refused on /v1", async () => {
    const { client, provider, user } = await connectAfterConsent(["spend.read", "spend.write", "accounts.read"])
    const clientRequestId = crypto.randomUUID()
    const call = () => client.callTool({ name: "create_spend_request", arguments: { ...spend, clientRequestId } })
    const first = toolAnswer(await call())
    const retried = toolAnswer(await call())
    assert.isFalse(first.isError, JSON.stringify(first.body))
    assert.deepStrictEqual(retried.body, first.body, "the retry replays the first answer")
    const other = toolAnswer(await client.callTool({ name: "create_spend_request", arguments: spend }))
    assert.notStrictEqual(other.body.id, first.body.id, "a call without the same clientRequestId is a new request")
    const listed = toolAnswer(await client.callTool({ name: "list_spend_requests", arguments: {} }))
    assert.sameMembers(
      listed.body.data.map((r: { id: string }) => r.id),
      [first.body.id, other.body.id]
    )

    const keys = await service.app().call("GET", "/treasury/team-api-keys", { token: user.session })
    assert.strictEqual(keys.status, 200, JSON.stringify(keys.body))
    assert.strictEqual(keys.body.data.length, 1, "every tool call goes through the same key")
    const [appKey] = keys.body.data
    assert.match(appKey.name, /^OAuth app /u)
    assert.strictEqual(appKey.mode, "live")
    assert.strictEqual(first.body.spendingKeyId, appKey.id)

    const token = provider.tokens()?.access_token ?? ""
    const onV1 = await fetch(`${service.baseUrl()}/v1/balance`, { headers: { authorization: `Bearer ${token}` } })
    assert.strictEqual(onV1.status, 401, "the token the tools act with is no /v1 credential")
    assert.match(onV1.headers.get("www-authenticate") ?? "", /svcteam_/u)

    const revoked = await service.app().call("DELETE", `/treasury/team-api-keys/${appKey.id}`, { token: user.session })
    assert.strictEqual(revoked.status, 200, JSON.stringify(revoked.body))
    const afterRevoke = await fetch(`${service.baseUrl()}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}"
    })
    assert.strictEqual(afterRevoke.status, 401, "revoking the app's key ends its tool calls")
    await client.close()
  })

  it("a tool call retried after a token refresh replays the first answer: idempotency is the app key's", async () => {
    const { client, provider } = await connectAfterConsent(["spend.read", "spend.write", "accounts.read"])
    const clientRequestId = crypto.randomUUID()
    const args = { ...spend, clientRequestId }
    const first = toolAnswer(await client.callTool({ name: "create_spend_request", arguments: args }))
    assert.isFalse(first.isError, JSON.stringify(first.body))
    await client.close()

    const refreshed = await service.app().call("POST", "/oauth/token", {
      body: {
        grant_type: "refresh_token",
        refresh_token: provider.tokens()?.refresh_token ?? "",
        client_id: provider.clientInformation()?.client_id ?? ""
      }
    })
    assert.strictEqual(refreshed.status, 200, JSON.stringify(refreshed.body))
    assert.notStrictEqual(refreshed.body.access_token, provider.tokens()?.access_token)
    const again = new Client({ name: "svc-tests", version: "0.0.1" })
    await again.connect(
      new StreamableHTTPClientTransport(new URL(`${service.baseUrl()}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${refreshed.body.access_token}` } }
      })
    )
    const retried = toolAnswer(await again.callTool({ name: "create_spend_request", arguments: args }))
    assert.deepStrictEqual(retried.body, first.body, "the same clientRequestId is the same Idempotency-Key")
    const listed = toolAnswer(await again.callTool({ name: "list_spend_requests", arguments: {} }))
    assert.deepStrictEqual(
      listed.body.data.map((r: { id: string }) => r.id),
      [first.body.id]
    )
    await again.close()
  })

  it("a token without spend.write reads but cannot call the writing tools: the tool error names the scope", async () => {
    const { client } = await connectAfterConsent(["spend.read", "accounts.read"])
    const balance = toolAnswer(await client.callTool({ name: "get_balance", arguments: {} }))
    assert.isFalse(balance.isError, JSON.stringify(balance.body))
    assert.isNumber(balance.body.available)
    const listed = toolAnswer(await client.callTool({ name: "list_spend_requests", arguments: {} }))
    assert.isFalse(listed.isError, JSON.stringify(listed.body))

    for (const [name, args] of [
      ["create_spend_request", spend],
      ["cancel_spend_request", { id: crypto.randomUUID() }],
      ["issue_card_for_intent", { intentId: crypto.randomUUID() }]
    ] as const) {
      const refused = toolAnswer(await client.callTool({ name, arguments: args }))
      assert.isTrue(refused.isError, name)
      assert.strictEqual(refused.body.status, 403, name)
      assert.strictEqual(refused.body.error, "insufficient_scope", name)
      assert.match(refused.body.message, /spend\.write/u, name)
    }
    await client.close()
  })
})
