import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { x402HttpSuite } from "./X402HttpSuite.ts"

x402HttpSuite(
  process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres",
  PortsPg.pipe(Layer.provideMerge(TestDatabase))
)
