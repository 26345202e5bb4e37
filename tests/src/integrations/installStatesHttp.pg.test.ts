import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { installStatesHttpSuite } from "./InstallStatesHttpSuite.ts"

installStatesHttpSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
