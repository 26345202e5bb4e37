import { assert, layer } from "@effect/vitest"
import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { sessionToken } from "../support/InProcessApp.ts"
import { type SignInApp, withSignInApp } from "./DashboardSignInSetup.ts"

/** The SQL `POST /auth/sign-in-links` runs for `email`, answered 202. */
const sqlOfAsking = (app: SignInApp, email: string) =>
  app.sqlDuring(async () => {
    const answer = await app.call("POST", "/auth/sign-in-links", { body: { email } })
    assert.strictEqual(answer.status, 202, JSON.stringify(answer.body))
  })

layer(PortsPg.pipe(Layer.provideMerge(TestDatabase)), { timeout: "120 seconds", excludeTestServices: true })(
  `asking for a sign-in link (${process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres"})`,
  (it) => {
    it.effect("runs the same SQL for a known and an unknown address, none of it reading users or links", () =>
      withSignInApp({ dashboardSignUp: "invited" }, async (app) => {
        const email = `${crypto.randomUUID()}@example.com`
        assert.strictEqual((await app.call("GET", "/users/me", { token: await sessionToken({ email }) })).status, 200)

        const known = await sqlOfAsking(app, email)
        const unknown = await sqlOfAsking(app, `${crypto.randomUUID()}@example.com`)
        assert.isNotEmpty(known)
        assert.deepStrictEqual(unknown, known)
        for (const statement of known) assert.notMatch(statement, /\b(users|sign_in_links)\b/u, statement)

        await app.sendLinks()
        assert.deepStrictEqual(
          app.mail().map((message) => message.to),
          [email],
          "with sign-up for the invited, the sign-in pass mails the known address only"
        )
      })
    )
  }
)
