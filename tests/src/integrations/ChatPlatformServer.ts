import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"

/** A request the platform got: its path, headers and form-decoded body. */
interface PlatformRequest {
  readonly path: string
  readonly headers: Record<string, string>
  readonly form: Record<string, string>
}

/** Where a code's installation goes: the workspace and the channel the installing user picked. */
export interface PlatformWorkspace {
  readonly id: string
  readonly name: string
  readonly channelId: string
  readonly channelName: string
}

/** How the platform answers the next token request instead of granting it. */
type TokenFailure = "refuse" | "status500"

const CLIENT_ID = "1234567890.0987654321"
const CLIENT_SECRET = "platform-client-secret-0123456789abcdef"

/**
 * A loopback stand-in for the chat platform (Slack-compatible Web API shapes), closed with the scope: `consent`
 * plays a user approving the install in the platform's UI and answers the code the platform would redirect with;
 * `oauth.v2.access` exchanges codes once, for the client id, secret and redirect URI they were issued for; and
 * `auth.revoke` revokes bot tokens.
 */
export const chatPlatformServer = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<ChatPlatformServer>((resolve) => {
        const requests: Array<PlatformRequest> = []
        const codes = new Map<string, { redirectUri: string; scope: string; workspace: PlatformWorkspace }>()
        const tokens = new Map<string, { revoked: boolean }>()
        const failures: Array<TokenFailure> = []
        const json = (res: ServerResponse, status: number, body: unknown) => {
          res.writeHead(status, { "content-type": "application/json; charset=utf-8" })
          res.end(JSON.stringify(body))
        }
        const tokenEndpoint = (form: Record<string, string>, res: ServerResponse) => {
          const failure = failures.shift()
          if (failure === "status500") return json(res, 500, { ok: false, error: "internal_error" })
          if (failure === "refuse") return json(res, 200, { ok: false, error: "access_denied" })
          if (form.client_id !== CLIENT_ID) return json(res, 200, { ok: false, error: "invalid_client_id" })
          if (form.client_secret !== CLIENT_SECRET) return json(res, 200, { ok: false, error: "bad_client_secret" })
          const grant = codes.get(form.code ?? "")
          if (grant === undefined) return json(res, 200, { ok: false, error: "invalid_code" })
          codes.delete(form.code ?? "")
          if (grant.redirectUri !== form.redirect_uri) return json(res, 200, { ok: false, error: "bad_redirect_uri" })
          const token = `xoxb-${crypto.randomUUID()}`
          tokens.set(token, { revoked: false })
          return json(res, 200, {
            ok: true,
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
        const revokeEndpoint = (headers: Record<string, string>, res: ServerResponse) => {
          const token = /^Bearer (.+)$/u.exec(headers.authorization ?? "")?.[1]
          const state = token === undefined ? undefined : tokens.get(token)
          if (state === undefined || state.revoked) return json(res, 200, { ok: false, error: "invalid_auth" })
          state.revoked = true
          return json(res, 200, { ok: true, revoked: true })
        }
        const server = createServer((req: IncomingMessage, res: ServerResponse) => {
          const chunks: Array<Buffer> = []
          req.on("data", (c: Buffer) => chunks.push(c))
          req.on("end", () => {
            const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]))
            const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")))
            const path = new URL(req.url ?? "/", "http://platform.test").pathname
            requests.push({ path, headers, form })
            if (req.method === "POST" && path === "/api/oauth.v2.access") return tokenEndpoint(form, res)
            if (req.method === "POST" && path === "/api/auth.revoke") return revokeEndpoint(headers, res)
            return json(res, 404, { ok: false, error: "unknown_method" })
          })
        })
        server.listen(0, "127.0.0.1", () => {
          const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
          resolve({
            server,
            clientId: CLIENT_ID,
            clientSecret: CLIENT_SECRET,
            authorizeUrl: `${base}/oauth/v2/authorize`,
            tokenUrl: `${base}/api/oauth.v2.access`,
            apiUrl: `${base}/api`,
            requests,
            consent: (redirectUri, scope, workspace = DEFAULT_WORKSPACE) => {
              const code = `code-${crypto.randomUUID()}`
              codes.set(code, { redirectUri, scope, workspace })
              return code
            },
            failNextExchange: (failure) => {
              failures.push(failure)
            },
            isRevoked: (token) => tokens.get(token)?.revoked === true,
            issuedTokens: () => Array.from(tokens.keys())
          })
        })
      })
  ),
  ({ server }) =>
    Effect.promise(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        })
    )
)

/** The workspace and channel a consent installs into unless told otherwise. */
export const DEFAULT_WORKSPACE: PlatformWorkspace = {
  id: "T0ACME001",
  name: "Acme HQ",
  channelId: "C0APPROVE",
  channelName: "approvals"
}

/** The running stand-in. */
export interface ChatPlatformServer {
  readonly server: ReturnType<typeof createServer>
  readonly clientId: string
  readonly clientSecret: string
  readonly authorizeUrl: string
  readonly tokenUrl: string
  readonly apiUrl: string
  readonly requests: ReadonlyArray<PlatformRequest>
  /** The code the platform redirects with once a user approves the install for `redirectUri`. */
  readonly consent: (redirectUri: string, scope: string, workspace?: PlatformWorkspace) => string
  readonly failNextExchange: (failure: TokenFailure) => void
  readonly isRevoked: (token: string) => boolean
  readonly issuedTokens: () => ReadonlyArray<string>
}
