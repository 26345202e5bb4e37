import { createHmac } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Context, Effect, Layer, type Scope } from "effect"

/**
 * One request the platform received: the Web API method (`oauth.v2.access`, `chat.postMessage`, ..., or `respond`),
 * its headers, its bearer token and its body (JSON, form-decoded, or the query of a GET).
 */
interface PlatformRequest {
  readonly method: string
  readonly headers: Record<string, string>
  readonly token: string | undefined
  // biome-ignore lint/suspicious/noExplicitAny: requests are asserted field by field
  readonly body: any
}

/** A message in the platform's channels, as posted and updated. */
interface PlatformMessage {
  readonly channel: string
  readonly ts: string
  text: string
  // biome-ignore lint/suspicious/noExplicitAny: block kit JSON
  blocks: ReadonlyArray<any>
  readonly metadata: { readonly event_type: string; readonly event_payload: Record<string, unknown> } | undefined
}

/** A scripted answer: an HTTP status, headers and a JSON body. */
interface ScriptedAnswer {
  readonly status?: number
  readonly headers?: Record<string, string>
  readonly body?: object
}

/** Where a code's installation goes: the workspace and the channel the installing user picked. */
export interface PlatformWorkspace {
  readonly id: string
  readonly name: string
  readonly channelId: string
  readonly channelName: string
}

/** The workspace and channel a consent installs into unless told otherwise. */
export const DEFAULT_WORKSPACE: PlatformWorkspace = {
  id: "T0ACME001",
  name: "Acme HQ",
  channelId: "C0APPROVE",
  channelName: "approvals"
}

/** A bot token the platform accepts from the start, for tests that seal it into an integration directly. */
export const BOT_TOKEN = "xoxb-test-bot-token"

const CLIENT_ID = "1234567890.0987654321"
const CLIENT_SECRET = "platform-client-secret-0123456789abcdef"

/** How the token endpoint answers a scripted failure: refusing the code, or a 500. */
const EXCHANGE_FAILURES = {
  refuse: { body: { ok: false, error: "access_denied" } },
  status500: { status: 500, body: { ok: false, error: "internal_error" } }
} satisfies Record<string, ScriptedAnswer>

/** The running stand-in for the whole chat platform. */
export interface ChatPlatformStandIn {
  readonly clientId: string
  readonly clientSecret: string
  readonly authorizeUrl: string
  /** The OAuth token endpoint (`CHAT_OAUTH_TOKEN_URL`). */
  readonly tokenUrl: string
  /** The Web API base (`CHAT_API_URL`). */
  readonly apiUrl: string
  /** Every request, in order, or those of one method. */
  readonly requests: (method?: string) => ReadonlyArray<PlatformRequest>
  readonly messages: (channel?: string) => ReadonlyArray<PlatformMessage>
  /** The next `times` calls of `method` get `answer`. */
  readonly script: (method: string, answer: ScriptedAnswer, times?: number) => void
  /** The next code exchange fails as `failure` (a script of `oauth.v2.access`). */
  readonly failNextExchange: (failure: keyof typeof EXCHANGE_FAILURES) => void
  /** While down, every request's connection is dropped. */
  readonly setDown: (down: boolean) => void
  readonly addUser: (id: string, profile: { readonly email?: string; readonly isBot?: boolean }) => void
  /** The code the platform redirects with once a user approves the install for `redirectUri`. */
  readonly consent: (redirectUri: string, scope: string, workspace?: PlatformWorkspace) => string
  readonly isRevoked: (token: string) => boolean
  /** The bot tokens the OAuth exchange issued, in order. */
  readonly issuedTokens: () => ReadonlyArray<string>
  /** A new response URL, the ephemeral answers it received, and the first one when it arrives. */
  readonly responseUrl: () => {
    readonly url: string
    readonly answers: () => ReadonlyArray<string>
    readonly firstAnswer: Promise<string>
  }
}

/**
 * A loopback server playing the chat platform with its real shapes (Slack-compatible), closed with the scope. OAuth:
 * `consent` plays a user approving the install and answers the code the platform would redirect with;
 * `oauth.v2.access` exchanges codes once, for the client id, secret and redirect URI they were issued for, and issues
 * bot tokens (a workspace's bot keeps its token across reinstalls until it is revoked); `auth.revoke` revokes them.
 * Web API: `chat.postMessage`, `chat.update`, `conversations.history` and `users.info` under `/api`, accepting
 * `BOT_TOKEN` and every issued token not revoked (`invalid_auth` otherwise); interaction response URLs under
 * `/respond`. It records every request, and can be scripted to refuse, rate-limit or be down.
 */
export const chatPlatformFake: Effect.Effect<ChatPlatformStandIn, never, Scope.Scope> = Effect.gen(function* () {
  const requests: Array<PlatformRequest> = []
  const messages: Array<PlatformMessage> = []
  const scripts = new Map<string, Array<ScriptedAnswer>>()
  const users = new Map<string, { readonly email?: string; readonly isBot?: boolean }>()
  const responses = new Map<string, { readonly answers: Array<string>; readonly arrived: (text: string) => void }>()
  const codes = new Map<string, { redirectUri: string; scope: string; workspace: PlatformWorkspace }>()
  /** Every token the platform knows: `BOT_TOKEN` and the ones the exchange issued. */
  const tokens = new Map<string, { revoked: boolean; readonly issued: boolean }>([
    [BOT_TOKEN, { revoked: false, issued: false }]
  ])
  const workspaceTokens = new Map<string, string>()
  let down = false
  let sequence = 0

  const send = (res: ServerResponse, answer: ScriptedAnswer) => {
    res.writeHead(answer.status ?? 200, { "content-type": "application/json; charset=utf-8", ...answer.headers })
    res.end(JSON.stringify(answer.body ?? { ok: true }))
  }
  const ok = (res: ServerResponse, body: object) => send(res, { body: { ok: true, ...body } })
  const error = (res: ServerResponse, code: string) => send(res, { body: { ok: false, error: code } })

  const exchange = (form: Record<string, string>, res: ServerResponse) => {
    if (form.client_id !== CLIENT_ID) return error(res, "invalid_client_id")
    if (form.client_secret !== CLIENT_SECRET) return error(res, "bad_client_secret")
    const grant = codes.get(form.code ?? "")
    if (grant === undefined) return error(res, "invalid_code")
    codes.delete(form.code ?? "")
    if (grant.redirectUri !== form.redirect_uri) return error(res, "bad_redirect_uri")
    const held = workspaceTokens.get(grant.workspace.id)
    const token = held !== undefined && tokens.get(held)?.revoked === false ? held : `xoxb-${crypto.randomUUID()}`
    tokens.set(token, { revoked: false, issued: true })
    workspaceTokens.set(grant.workspace.id, token)
    return ok(res, {
      access_token: token,
      token_type: "bot",
      scope: grant.scope,
      bot_user_id: "U0BOT0001",
      app_id: "A0APP0001",
      team: { id: grant.workspace.id, name: grant.workspace.name },
      enterprise: null,
      is_enterprise_install: false,
      incoming_webhook: {
        channel: `#${grant.workspace.channelName}`,
        channel_id: grant.workspace.channelId,
        configuration_url: `https://${grant.workspace.id}.chat.test/services/B0001`,
        url: `https://hooks.chat.test/services/${grant.workspace.id}/B0001/x`
      },
      authed_user: { id: "U0HUMAN01" }
    })
  }

  // biome-ignore lint/suspicious/noExplicitAny: request bodies are JSON
  const webApi = (method: string, token: string, body: any, url: URL, res: ServerResponse) => {
    switch (method) {
      case "auth.revoke": {
        const state = tokens.get(token)
        if (state !== undefined) state.revoked = true
        return ok(res, { revoked: true })
      }
      case "chat.postMessage": {
        sequence += 1
        const message: PlatformMessage = {
          channel: body.channel,
          ts: `1700000000.${String(sequence).padStart(6, "0")}`,
          text: body.text,
          blocks: body.blocks ?? [],
          metadata: body.metadata
        }
        messages.push(message)
        return ok(res, { channel: message.channel, ts: message.ts, message })
      }
      case "chat.update": {
        const found = messages.find((m) => m.channel === body.channel && m.ts === body.ts)
        if (found === undefined) return error(res, "message_not_found")
        found.text = body.text
        found.blocks = body.blocks ?? []
        return ok(res, { channel: found.channel, ts: found.ts })
      }
      case "conversations.history": {
        const withMetadata = url.searchParams.get("include_all_metadata") === "true"
        const history = messages
          .filter((m) => m.channel === url.searchParams.get("channel"))
          .toReversed()
          .map((m) => ({ type: "message", ts: m.ts, text: m.text, ...(withMetadata ? { metadata: m.metadata } : {}) }))
        return ok(res, { messages: history, has_more: false })
      }
      case "users.info": {
        const user = users.get(url.searchParams.get("user") ?? "")
        if (user === undefined) return error(res, "user_not_found")
        return ok(res, {
          user: {
            id: url.searchParams.get("user"),
            is_bot: user.isBot ?? false,
            profile: user.email === undefined ? {} : { email: user.email }
          }
        })
      }
      default:
        return error(res, "unknown_method")
    }
  }

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = new URL(req.url ?? "/", "http://platform.test")
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]))
    if (url.pathname.startsWith("/respond/")) {
      const body = JSON.parse(raw)
      requests.push({ method: "respond", headers, token: undefined, body })
      const response = responses.get(url.pathname.slice("/respond/".length))
      response?.answers.push(String(body.text))
      response?.arrived(String(body.text))
      return ok(res, {})
    }
    if (!url.pathname.startsWith("/api/"))
      return send(res, { status: 404, body: { ok: false, error: "unknown_method" } })
    const method = url.pathname.slice("/api/".length)
    const token = /^Bearer (.+)$/u.exec(headers.authorization ?? "")?.[1]
    const body =
      req.method === "GET"
        ? Object.fromEntries(url.searchParams)
        : headers["content-type"]?.startsWith("application/x-www-form-urlencoded")
          ? Object.fromEntries(new URLSearchParams(raw))
          : raw === ""
            ? {}
            : JSON.parse(raw)
    requests.push({ method, headers, token, body })
    const scripted = scripts.get(method)?.shift()
    if (scripted !== undefined) return send(res, scripted)
    if (method === "oauth.v2.access") return exchange(body, res)
    if (token === undefined || tokens.get(token)?.revoked !== false) return error(res, "invalid_auth")
    return webApi(method, token, body, url, res)
  }

  const server = createServer((req, res) => {
    if (down) {
      req.socket.destroy()
      return
    }
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")))
  })
  const port = yield* Effect.acquireRelease(
    Effect.callback<number>((resume) => {
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed((server.address() as AddressInfo).port)))
    }),
    () =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )
  const base = `http://127.0.0.1:${port}`
  const script = (method: string, answer: ScriptedAnswer, times = 1) => {
    scripts.set(method, [...(scripts.get(method) ?? []), ...Array.from({ length: times }, () => answer)])
  }
  return {
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    authorizeUrl: `${base}/oauth/v2/authorize`,
    tokenUrl: `${base}/api/oauth.v2.access`,
    apiUrl: `${base}/api`,
    requests: (method) => requests.filter((r) => method === undefined || r.method === method),
    messages: (channel) => messages.filter((m) => channel === undefined || m.channel === channel),
    script,
    failNextExchange: (failure) => script("oauth.v2.access", EXCHANGE_FAILURES[failure]),
    setDown: (value) => {
      down = value
    },
    addUser: (id, profile) => {
      users.set(id, profile)
    },
    consent: (redirectUri, scope, workspace = DEFAULT_WORKSPACE) => {
      const code = `code-${crypto.randomUUID()}`
      codes.set(code, { redirectUri, scope, workspace })
      return code
    },
    isRevoked: (token) => tokens.get(token)?.revoked === true,
    issuedTokens: () => Array.from(tokens).flatMap(([token, state]) => (state.issued ? [token] : [])),
    responseUrl: () => {
      const id = crypto.randomUUID()
      const answers: Array<string> = []
      const firstAnswer = new Promise<string>((resolve) => responses.set(id, { answers, arrived: resolve }))
      return { url: `${base}/respond/${id}`, answers: () => [...answers], firstAnswer }
    }
  } satisfies ChatPlatformStandIn
})

/** The stand-in as a service, for suites that build the application over it. */
export class ChatPlatformFake extends Context.Service<ChatPlatformFake, ChatPlatformStandIn>()(
  "tests/ChatPlatformFake"
) {
  static readonly layer = Layer.effect(ChatPlatformFake, chatPlatformFake)
}

/** The chat app configured against a platform that is never reached (nothing listens there): for route sweeps. */
export const CHAT_APP_UNREACHABLE_ENV = {
  CHAT_CLIENT_ID: "sweep-chat-client",
  CHAT_CLIENT_SECRET: "sweep-chat-client-secret",
  CHAT_OAUTH_TOKEN_URL: "http://127.0.0.1:9/api/oauth.v2.access",
  CHAT_API_URL: "http://127.0.0.1:9/api"
} as const

/** The form body and headers of an interaction, signed as the platform signs it (`v0:<timestamp>:<body>`). */
export const signedInteraction = (
  secret: string,
  payload: object,
  timestamp: number = Math.floor(Date.now() / 1000)
): { readonly body: string; readonly headers: Record<string, string> } =>
  signedBody(secret, `payload=${encodeURIComponent(JSON.stringify(payload))}`, timestamp)

/** Any form body with the platform's signature headers. */
export const signedBody = (
  secret: string,
  body: string,
  timestamp: number = Math.floor(Date.now() / 1000)
): { readonly body: string; readonly headers: Record<string, string> } => {
  const signature = createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")
  return {
    body,
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-chat-signature": `v0=${signature}`,
      "x-chat-request-timestamp": String(timestamp)
    }
  }
}

/** A `block_actions` interaction: `user` pressed `action` ("approve" or "deny") on the message of `approvalId`. */
export const buttonPress = (input: {
  readonly workspaceId: string
  readonly user: string
  readonly action: string
  readonly approvalId: string
  readonly responseUrl: string
  readonly channel?: string
  readonly ts?: string
}) => ({
  type: "block_actions",
  user: { id: input.user, team_id: input.workspaceId },
  team: { id: input.workspaceId },
  channel: { id: input.channel ?? "C-APPROVALS" },
  message: { ts: input.ts ?? "1700000000.000001" },
  response_url: input.responseUrl,
  trigger_id: `trigger-${crypto.randomUUID()}`,
  actions: [
    {
      action_id: input.action,
      block_id: `approval:${input.approvalId}`,
      value: input.approvalId,
      action_ts: "1700000001.000001"
    }
  ]
})
