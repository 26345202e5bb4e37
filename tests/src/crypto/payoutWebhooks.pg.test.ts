import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { payoutWebhooksSuite } from "./PayoutWebhooksSuite.ts"

payoutWebhooksSuite(
  process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres",
  PortsPg.pipe(Layer.provideMerge(TestDatabase))
)
