/**
 * Prints a session JWT for local use: `SESSION_JWT_SECRET=… npm run session-token -- you@example.com [user-uuid]`.
 * The service provisions the user on first use; pass the same UUID again to act as the same user.
 */
import { Effect, Option, Redacted } from "effect"
import { SignJWT } from "jose"
import { configuredSessionSecret } from "./Config.ts"

const secret = Option.getOrUndefined(
  Option.map(
    await Effect.runPromise(
      Effect.gen(function* () {
        return yield* configuredSessionSecret
      })
    ),
    Redacted.value
  )
)
const [email = "dev@example.com", subject = crypto.randomUUID()] = process.argv.slice(2)
if (secret === undefined || secret === "") {
  console.error("set SESSION_JWT_SECRET to the secret the service runs with")
  process.exit(2)
}
const token = await new SignJWT({ email, name: email.split("@")[0] })
  .setProtectedHeader({ alg: "HS256" })
  .setSubject(subject)
  .setIssuedAt()
  .setExpirationTime("12h")
  .sign(new TextEncoder().encode(secret))
console.log(token)
