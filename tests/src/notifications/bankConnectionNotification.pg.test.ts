import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { bankConnectionNotificationSuite } from "./BankConnectionNotificationSuite.ts"

bankConnectionNotificationSuite(
  process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres",
  PortsPg.pipe(Layer.provideMerge(TestDatabase))
)
