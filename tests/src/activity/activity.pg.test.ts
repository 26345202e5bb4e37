import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { activityContract } from "./ActivityContract.ts"

activityContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
