import { createHmac } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Context, Effect, Layer } from "effect"

/** One request the platform received: the Web API method (or `respond`), its bearer token and its JSON or query. */
export interface PlatformRequest {
  readonly method: string
  readonly token: string | undefined
  // biome-ignore lint/suspicious/noExplicitAny: requests are asserted field by field
  readonly body: any
}

/** A message in the platform's channels, as posted and updated. */
export interface PlatformMessage {
  readonly channel: string
  readonly ts: string
  text: string
  // biome-ignore lint/suspicious/noExplicitAny: block kit JSON
  blocks: ReadonlyArray<any>
  readonly metadata: { readonly event_type: string; readonly event_payload: Record<string, unknown> } | undefined
}

/** A scripted answer: an HTTP status, headers and a JSON body. */
export interface ScriptedAnswer {
  readonly status?: number
  readonly headers?: Record<string, string>
  readonly body?: object
}

/** The bot token the platform accepts. */
export const BOT_TOKEN = "xoxb-test-bot-token"

/**
 * A local HTTP server playing the chat platform's Web API with its real shapes (Slack-compatible): `chat.postMessage`,
 * `chat.update`, `conversations.history`, `users.info` under `/api`, and interaction response URLs under `/respond`.
 * It records every request, answers `invalid_auth` to any other token, and can be scripted to refuse, rate-limit or be
 * down.
 */
export class ChatPlatformFake extends Context.Service<
  ChatPlatformFake,
  {
    /** The Web API base (`CHAT_API_URL`). */
    readonly apiUrl: string
    readonly requests: (method?: string) => ReadonlyArray<PlatformRequest>
    readonly messages: (channel?: string) => ReadonlyArray<PlatformMessage>
    /** The next `times` calls of `method` get `answer`. */
    readonly script: (method: string, answer: ScriptedAnswer, times?: number) => void
    /** While down, every request's connection is dropped. */
    readonly setDown: (down: boolean) => void
    readonly addUser: (id: string, profile: { readonly email?: string; readonly isBot?: boolean }) => void
    /** A new response URL, the ephemeral answers it received, and the first one when it arrives. */
    readonly responseUrl: () => {
      readonly url: string
      readonly answers: () => ReadonlyArray<string>
      readonly firstAnswer: Promise<string>
    }
  }
>()("tests/ChatPlatformFake") {
  static readonly layer = Layer.effect(
    ChatPlatformFake,
    Effect.gen(function* () {
      const requests: Array<PlatformRequest> = []
      const messages: Array<PlatformMessage> = []
      const scripts = new Map<string, Array<ScriptedAnswer>>()
      const users = new Map<string, { readonly email?: string; readonly isBot?: boolean }>()
      const responses = new Map<string, { readonly answers: Array<string>; readonly arrived: (text: string) => void }>()
      let down = false
      let sequence = 0

      const send = (res: ServerResponse, answer: ScriptedAnswer) => {
        res.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers })
        res.end(JSON.stringify(answer.body ?? { ok: true }))
      }

      const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
        const url = new URL(req.url ?? "/", "http://platform")
        if (url.pathname.startsWith("/respond/")) {
          const id = url.pathname.slice("/respond/".length)
          requests.push({ method: "respond", token: undefined, body: JSON.parse(raw) })
          const text = String(JSON.parse(raw).text)
          const response = responses.get(id)
          response?.answers.push(text)
          response?.arrived(text)
          return send(res, { body: { ok: true } })
        }
        const method = url.pathname.replace(/^\/api\//u, "")
        const auth = req.headers.authorization
        const token = auth?.startsWith("Bearer ") ? auth.slice(7) : undefined
        const body = req.method === "GET" ? Object.fromEntries(url.searchParams) : raw === "" ? {} : JSON.parse(raw)
        requests.push({ method, token, body })
        const scripted = scripts.get(method)?.shift()
        if (scripted !== undefined) return send(res, scripted)
        if (token !== BOT_TOKEN) return send(res, { body: { ok: false, error: "invalid_auth" } })
        switch (method) {
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
            return send(res, { body: { ok: true, channel: message.channel, ts: message.ts, message } })
          }
          case "chat.update": {
            const found = messages.find((m) => m.channel === body.channel && m.ts === body.ts)
            if (found === undefined) return send(res, { body: { ok: false, error: "message_not_found" } })
            found.text = body.text
            found.blocks = body.blocks ?? []
            return send(res, { body: { ok: true, channel: found.channel, ts: found.ts } })
          }
          case "conversations.history": {
            const withMetadata = url.searchParams.get("include_all_metadata") === "true"
            const history = messages
              .filter((m) => m.channel === url.searchParams.get("channel"))
              .toReversed()
              .map((m) => ({
                type: "message",
                ts: m.ts,
                text: m.text,
                ...(withMetadata ? { metadata: m.metadata } : {})
              }))
            return send(res, { body: { ok: true, messages: history, has_more: false } })
          }
          case "users.info": {
            const user = users.get(url.searchParams.get("user") ?? "")
            if (user === undefined) return send(res, { body: { ok: false, error: "user_not_found" } })
            return send(res, {
              body: {
                ok: true,
                user: {
                  id: url.searchParams.get("user"),
                  is_bot: user.isBot ?? false,
                  profile: user.email === undefined ? {} : { email: user.email }
                }
              }
            })
          }
          default:
            return send(res, { body: { ok: false, error: "unknown_method" } })
        }
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
      return ChatPlatformFake.of({
        apiUrl: `${base}/api`,
        requests: (method) => requests.filter((r) => method === undefined || r.method === method),
        messages: (channel) => messages.filter((m) => channel === undefined || m.channel === channel),
        script: (method, answer, times = 1) =>
          scripts.set(method, [...(scripts.get(method) ?? []), ...Array.from({ length: times }, () => answer)]),
        setDown: (value) => {
          down = value
        },
        addUser: (id, profile) => users.set(id, profile),
        responseUrl: () => {
          const id = crypto.randomUUID()
          const answers: Array<string> = []
          const firstAnswer = new Promise<string>((resolve) => responses.set(id, { answers, arrived: resolve }))
          return { url: `${base}/respond/${id}`, answers: () => [...answers], firstAnswer }
        }
      })
    })
  )
}

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
