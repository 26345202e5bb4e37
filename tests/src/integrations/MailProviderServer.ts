import { randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"

/** The app the service is registered as at the provider. */
export const MAIL_CLIENT = { id: "svc-mail-app.apps.example", secret: "mail-client-secret-0123456789" } as const

/** The tokens the provider issued for one code. */
interface IssuedTokens {
  readonly accessToken: string
  readonly refreshToken: string
}

/** A request the provider got at its token endpoint: the form fields. */
type TokenRequest = Readonly<Record<string, string>>

const token = (prefix: string) => `${prefix}${randomBytes(24).toString("base64url")}`

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
  })

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" })
  res.end(JSON.stringify(body))
}

/**
 * A local mail provider on a loopback port, closed with the scope, answering as an OAuth 2.0 / OpenID Connect provider
 * does: `POST /token` (RFC 6749 §4.1.3, form-encoded, client credentials in the body, each code once, for
 * `redirectUri`), `GET /userinfo` (bearer access token) and `POST /revoke` (RFC 7009). `issue` makes a code for an
 * address; `env` is the service configuration that points at it.
 */
export const mailProviderServer = (redirectUri: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const codes = new Map<string, { email: string; verified: boolean }>()
      const accessTokens = new Map<string, { email: string; verified: boolean }>()
      const issued = new Map<string, IssuedTokens>()
      const tokenRequests: Array<TokenRequest> = []
      const revoked: Array<string> = []
      const state = { revocationsFail: false }
      const server = createServer(async (req, res) => {
        const body = new URLSearchParams(await readBody(req))
        const path = new URL(req.url ?? "/", "http://provider").pathname
        if (req.method === "POST" && path === "/token") {
          const form = Object.fromEntries(body)
          tokenRequests.push(form)
          if (form.client_id !== MAIL_CLIENT.id || form.client_secret !== MAIL_CLIENT.secret) {
            return json(res, 401, { error: "invalid_client", error_description: "The OAuth client was not found." })
          }
          if (form.grant_type !== "authorization_code") return json(res, 400, { error: "unsupported_grant_type" })
          const grant = codes.get(form.code ?? "")
          codes.delete(form.code ?? "")
          if (grant === undefined || form.redirect_uri !== redirectUri) {
            return json(res, 400, { error: "invalid_grant", error_description: "Malformed auth code." })
          }
          const tokens = { accessToken: token("ya29."), refreshToken: token("1//") }
          accessTokens.set(tokens.accessToken, grant)
          issued.set(grant.email, tokens)
          return json(res, 200, {
            access_token: tokens.accessToken,
            expires_in: 3599,
            refresh_token: tokens.refreshToken,
            scope: "openid email mail.read",
            token_type: "Bearer",
            id_token: `eyJhbGciOiJSUzI1NiJ9.${randomBytes(32).toString("base64url")}.sig`
          })
        }
        if (req.method === "GET" && path === "/userinfo") {
          const bearer = (req.headers.authorization ?? "").replace(/^Bearer /u, "")
          const account = accessTokens.get(bearer)
          if (account === undefined) return json(res, 401, { error: "invalid_token" })
          return json(res, 200, {
            sub: "110169484474386276334",
            email: account.email,
            email_verified: account.verified
          })
        }
        if (req.method === "POST" && path === "/revoke") {
          if (state.revocationsFail) return json(res, 503, { error: "temporarily_unavailable" })
          revoked.push(body.get("token") ?? "")
          res.writeHead(200)
          return res.end()
        }
        json(res, 404, { error: "not_found" })
      })
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      return {
        server,
        base,
        env: {
          MAIL_CLIENT_ID: MAIL_CLIENT.id,
          MAIL_CLIENT_SECRET: MAIL_CLIENT.secret,
          MAIL_OAUTH_AUTHORIZE_URL: `${base}/authorize`,
          MAIL_OAUTH_TOKEN_URL: `${base}/token`,
          MAIL_USERINFO_URL: `${base}/userinfo`,
          MAIL_OAUTH_REVOKE_URL: `${base}/revoke`
        },
        /** A code the provider accepts once, for `email` (verified unless told). */
        issue: (email: string, options: { readonly verified?: boolean } = {}) => {
          const code = token("4/0A")
          codes.set(code, { email, verified: options.verified ?? true })
          return code
        },
        /** The tokens last issued for an address. */
        tokensOf: (email: string) => issued.get(email),
        tokenRequests,
        revoked,
        /** Makes the revocation endpoint answer 503 from now on. */
        failRevocations: () => {
          state.revocationsFail = true
        }
      }
    }),
    ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  )

/** The mail app configured against a provider that is never reached (nothing listens there): for route sweeps. */
export const MAIL_APP_UNREACHABLE_ENV = {
  MAIL_CLIENT_ID: MAIL_CLIENT.id,
  MAIL_CLIENT_SECRET: MAIL_CLIENT.secret,
  MAIL_OAUTH_AUTHORIZE_URL: "http://127.0.0.1:9/authorize",
  MAIL_OAUTH_TOKEN_URL: "http://127.0.0.1:9/token",
  MAIL_USERINFO_URL: "http://127.0.0.1:9/userinfo",
  MAIL_OAUTH_REVOKE_URL: "http://127.0.0.1:9/revoke"
} as const
