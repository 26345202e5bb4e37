import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { chatAppContract } from "./ChatAppContract.ts"

chatAppContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
