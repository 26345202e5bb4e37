/** What the bench scripts share to run the service on a database of their own: the server, its database, its flags. */

import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"

const startScript = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts.start
  .split(" ")
  .slice(1)

/**
 * The node arguments `npm start` runs the service with (its start script's flags and the built bundle), so that the
 * bench measures that service; the bundle is built first, as `npm start` builds it.
 */
export const serviceArguments = (): ReadonlyArray<string> => {
  execFileSync(process.execPath, ["scripts/build-server.ts"], { stdio: "inherit" })
  return startScript
}

/** The Postgres server the bench creates its databases on (DATABASE_URL, default the local one). */
export const serverUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"

/** A TCP port free on the loopback interface. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

/** `url` with its database replaced by `name`. */
export const withDatabase = (url: string, name: string) => {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

/** Runs `f` over one connection to `url`, closed afterwards. */
export const onDatabase = <A>(url: string, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* f(yield* SqlClient.SqlClient)
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })), Effect.scoped)
  )

/** Waits up to 30 s for the service at `base` to answer its readiness probe. */
export const waitForReady = async (base: string) => {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/health/ready`)).ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error("the service did not become ready")
}
