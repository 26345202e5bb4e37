import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { outboundSuite } from "./OutboundSuite.ts"

outboundSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
