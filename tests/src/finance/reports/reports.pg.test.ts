import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { reportsContract } from "./ReportsContract.ts"
import { ReportSeedPorts } from "./ReportsFixtures.ts"

reportsContract("Postgres", ReportSeedPorts.pipe(Layer.provideMerge(PortsPg), Layer.provideMerge(TestDatabase)))
