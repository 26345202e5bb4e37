import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { inboundSuite } from "./InboundSuite.ts"

inboundSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
