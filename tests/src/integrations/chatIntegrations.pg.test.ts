import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { chatIntegrationsContract } from "./ChatIntegrationsContract.ts"

chatIntegrationsContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
