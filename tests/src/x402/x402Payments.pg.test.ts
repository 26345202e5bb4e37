import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { x402Contract } from "./X402Contract.ts"

x402Contract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
