import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { idempotencyStoreContract } from "./IdempotencyStoreContract.ts"

const realPostgres = process.env.DATABASE_URL !== undefined

idempotencyStoreContract(
  realPostgres ? "real Postgres" : "embedded PGlite",
  PortsPg.pipe(Layer.provideMerge(TestDatabase)),
  {
    concurrentLocks: realPostgres,
    lockLabel: "real Postgres"
  }
)
