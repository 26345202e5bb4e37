import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { reportsContract } from "./ReportsContract.ts"
import { ReportSeedSql } from "./ReportsFixtures.ts"

reportsContract("Postgres", ReportSeedSql.pipe(Layer.provideMerge(PortsPg), Layer.provideMerge(TestDatabase)))
