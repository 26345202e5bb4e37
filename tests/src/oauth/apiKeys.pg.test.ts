import { PortsPg } from "@svc/adapters-pg"
import { TestDatabase } from "@svc/adapters-pg/testing"
import { Layer } from "effect"
import { apiKeysContract } from "./ApiKeysContract.ts"

apiKeysContract("Postgres", PortsPg.pipe(Layer.provideMerge(TestDatabase)))
