import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { chatAppHttpSuite } from "./ChatAppHttpSuite.ts"

chatAppHttpSuite("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
