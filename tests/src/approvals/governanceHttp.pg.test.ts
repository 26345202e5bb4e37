import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { governanceHttpSuite } from "./GovernanceHttpSuite.ts"

governanceHttpSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
