import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { inboundIntakeSuite } from "./InboundIntakeSuite.ts"

inboundIntakeSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
