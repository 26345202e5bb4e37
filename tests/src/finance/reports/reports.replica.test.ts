import { PortsPg } from "@svc/adapters-pg"
import { ReplicaOnTestDatabase, TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { reportsContract } from "./ReportsContract.ts"
import { ReportSeedPorts } from "./ReportsFixtures.ts"

// The reports read on a replica pool of their own (ADR 0052): the same figures as on the primary.
reportsContract(
  "Postgres, reports on a read replica",
  ReportSeedPorts.pipe(
    Layer.provideMerge(PortsPg),
    Layer.provideMerge(ReplicaOnTestDatabase),
    Layer.provideMerge(TestDatabase)
  )
)
