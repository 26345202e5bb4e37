import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { chatApprovalsContract } from "./ChatApprovalsContract.ts"

chatApprovalsContract(
  process.env.DATABASE_URL === undefined ? "embedded PGlite" : "real Postgres",
  PortsPg.pipe(Layer.provideMerge(TestDatabase))
)
