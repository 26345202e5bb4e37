import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { inboundProcessingSuite } from "./InboundProcessingSuite.ts"

inboundProcessingSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
