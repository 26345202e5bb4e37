import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { notificationsHttpSuite } from "./NotificationsHttpSuite.ts"

notificationsHttpSuite(
  process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres",
  PortsPg.pipe(Layer.provideMerge(TestDatabase))
)
