import { createHmac } from "node:crypto"
import { serviceConfig } from "@svc/api"
import { ConfigProvider, Effect } from "effect"

/** The session secret the in-process and end-to-end tests share. */
export const SESSION_SECRET = "slice-test-session-secret-0123456789abcdef"

/** The service configuration read from the given variables exactly as `npm start` reads the environment. */
export const configFrom = (env: Record<string, string>) =>
  Effect.runPromise(serviceConfig.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env)))))

const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url")

/** A session JWT signed with HS256; `claims` override the defaults, and an undefined claim is left out. */
export const sessionToken = (
  claims: Record<string, unknown> = {},
  options: { readonly secret?: string; readonly expiresInSeconds?: number } = {}
): string => {
  const now = Math.floor(Date.now() / 1000)
  const all: Record<string, unknown> = {
    sub: crypto.randomUUID(),
    email: "ada@example.com",
    name: "Ada Lovelace",
    exp: now + (options.expiresInSeconds ?? 600),
    iat: now,
    ...claims
  }
  const payload = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined))
  const signingInput = `${part({ alg: "HS256", typ: "JWT" })}.${part(payload)}`
  const signature = createHmac("sha256", options.secret ?? SESSION_SECRET)
    .update(signingInput)
    .digest("base64url")
  return `${signingInput}.${signature}`
}

/** An unsigned token (`alg: none`) carrying otherwise valid claims, with an empty or a made-up signature. */
export const unsignedToken = (signature = ""): string => {
  const now = Math.floor(Date.now() / 1000)
  return `${part({ alg: "none", typ: "JWT" })}.${part({ sub: crypto.randomUUID(), email: "a@example.com", exp: now + 600 })}.${signature}`
}
