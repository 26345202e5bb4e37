import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { activityHttpSuite } from "./ActivityHttpSuite.ts"

activityHttpSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
