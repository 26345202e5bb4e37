import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { payoutsContract } from "./PayoutsContract.ts"

payoutsContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
